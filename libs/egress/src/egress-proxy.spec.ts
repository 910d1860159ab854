import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EgressProxy, type EgressLogEntry } from './egress-proxy';
import type { EgressPolicy } from './egress-decision';

// The proxy over its real unix socket, against a loopback server of the test's own. Names that
// would resolve to private addresses come from an injected resolver: refusals happen before any
// connection, so no packet ever leaves loopback.
describe(EgressProxy.name, () => {
  let dir: string;
  let target: http.Server;
  let targetPort: number;
  let hits = 0;
  const logs: EgressLogEntry[] = [];
  let policy: EgressPolicy = { networkEnabled: true, allowedHosts: ['allowed.test', 'localhost', 'private.test'] };
  let proxy: EgressProxy;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'h-egress-'));
    target = http.createServer((req, res) => {
      hits++;
      res.end(`hello ${req.method} ${req.url} host=${req.headers.host}`);
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetPort = (target.address() as AddressInfo).port;
    proxy = new EgressProxy({
      socketDir: dir,
      policy: async (id) => (id === 'ws1' ? policy : null),
      onLog: (e) => logs.push(e),
      allowedPorts: 'any',
      allowLoopbackForTests: true,
      internalHosts: [{ host: '127.0.0.1', port: 6379 }, { host: 'localhost', port: 3000 }],
      lookup: async (host) => {
        if (host === 'allowed.test') return [{ address: '127.0.0.1', family: 4 }];
        if (host === 'private.test') return [{ address: '10.0.0.1', family: 4 }];
        if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
        throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      },
    });
    await proxy.serve('ws1');
  });

  afterAll(async () => {
    await proxy.close();
    await new Promise((r) => target.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  function viaProxy(url: string): Promise<{ status: number; refused?: string; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ socketPath: proxy.socketPath('ws1'), path: url, headers: { host: new URL(url).host } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, refused: res.headers['x-h-egress-refused'] as string | undefined, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  function connect(authority: string): Promise<{ status: number; refused?: string; reply?: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ socketPath: proxy.socketPath('ws1'), method: 'CONNECT', path: authority });
      req.on('connect', (res, socket) => {
        if (res.statusCode !== 200) {
          socket.destroy();
          return resolve({ status: res.statusCode ?? 0, refused: res.headers['x-h-egress-refused'] as string | undefined });
        }
        socket.write(`GET /tunnel HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
        let reply = '';
        socket.on('data', (c) => (reply += c));
        socket.on('end', () => resolve({ status: 200, reply }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('should forward an allowed http request to the checked address, keeping the Host header', async () => {
    const r = await viaProxy(`http://allowed.test:${targetPort}/x?y=1`);
    expect(r.status).toBe(200);
    expect(r.body).toBe(`hello GET /x?y=1 host=allowed.test:${targetPort}`);
    expect(logs.at(-1)).toMatchObject({ workspaceId: 'ws1', kind: 'http', host: 'allowed.test', allowed: true, address: '127.0.0.1' });
    expect(logs.at(-1)?.bytesIn).toBeGreaterThan(0);
  });

  it('should tunnel an allowed CONNECT', async () => {
    const r = await connect(`allowed.test:${targetPort}`);
    expect(r.status).toBe(200);
    expect(r.reply).toContain('hello GET /tunnel');
  });

  it('should refuse names off the allowlist, literal IPs and names resolving to private addresses, without connecting', async () => {
    const before = hits;
    expect(await connect('other.test:443')).toMatchObject({ status: 403, refused: 'NOT_ALLOWLISTED' });
    expect(await connect(`127.0.0.1:${targetPort}`)).toMatchObject({ status: 403, refused: 'LITERAL_IP' });
    expect(await connect('[::1]:443')).toMatchObject({ status: 403, refused: 'LITERAL_IP' });
    expect(await connect('private.test:443')).toMatchObject({ status: 403, refused: 'PRIVATE_ADDRESS' });
    expect((await viaProxy('http://private.test/')).refused).toBe('PRIVATE_ADDRESS');
    expect(hits).toBe(before);
    expect(logs.at(-1)).toMatchObject({ allowed: false, reason: 'PRIVATE_ADDRESS', address: '10.0.0.1', bytesIn: 0, bytesOut: 0 });
  });

  it("should refuse H's own services even with the loopback allowance", async () => {
    expect(await connect('localhost:6379')).toMatchObject({ status: 403, refused: 'INTERNAL_DESTINATION' });
    expect(await connect('localhost:3000')).toMatchObject({ status: 403, refused: 'INTERNAL_DESTINATION' });
  });

  it('should refuse everything when network access is off, and apply allowlist changes at once', async () => {
    policy = { networkEnabled: false, allowedHosts: ['allowed.test'] };
    expect(await connect(`allowed.test:${targetPort}`)).toMatchObject({ status: 403, refused: 'NETWORK_OFF' });
    policy = { networkEnabled: true, allowedHosts: [] };
    expect(await connect(`allowed.test:${targetPort}`)).toMatchObject({ status: 403, refused: 'NOT_ALLOWLISTED' });
    policy = { networkEnabled: true, allowedHosts: ['allowed.test', 'localhost', 'private.test'] };
  });

  it('should answer 502 when a name does not resolve, and 400 for https:// sent as a forward request', async () => {
    policy = { networkEnabled: true, allowedHosts: ['*.test'] };
    expect(await connect('nowhere.test:443')).toMatchObject({ status: 502, refused: 'DNS_FAILED' });
    expect(await viaProxy('https://allowed.test/')).toMatchObject({ status: 400, refused: 'BAD_REQUEST' });
    policy = { networkEnabled: true, allowedHosts: ['allowed.test', 'localhost', 'private.test'] };
  });

  it('should refuse loopback destinations without the test allowance', async () => {
    const strict = new EgressProxy({ socketDir: dir, policy: async () => ({ networkEnabled: true, allowedHosts: ['localhost'] }) });
    await strict.serve('ws2');
    try {
      const r = await new Promise<number | undefined>((resolve, reject) => {
        const req = http.request({ socketPath: strict.socketPath('ws2'), method: 'CONNECT', path: 'localhost:443' });
        req.on('connect', (res, s) => (s.destroy(), resolve(res.statusCode)));
        req.on('error', reject);
        req.end();
      });
      expect(r).toBe(403);
    } finally {
      await strict.remove('ws2');
    }
  });

  it('should answer 429 past the per-workspace connection limit and accept again once one closes', async () => {
    const limited = new EgressProxy({
      socketDir: dir,
      policy: async () => ({ networkEnabled: true, allowedHosts: ['allowed.test'] }),
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      allowedPorts: 'any',
      allowLoopbackForTests: true,
      maxConnectionsPerWorkspace: 1,
    });
    await limited.serve('ws3');
    const open = (): Promise<{ status?: number; socket: import('node:net').Socket; refused?: string }> =>
      new Promise((resolve, reject) => {
        const req = http.request({ socketPath: limited.socketPath('ws3'), method: 'CONNECT', path: `allowed.test:${targetPort}` });
        req.on('connect', (res, socket) => resolve({ status: res.statusCode, socket, refused: res.headers['x-h-egress-refused'] as string | undefined }));
        req.on('error', reject);
        req.end();
      });
    try {
      const first = await open();
      expect(first.status).toBe(200);
      const second = await open();
      expect([second.status, second.refused]).toEqual([429, 'TOO_MANY_CONNECTIONS']);
      second.socket.destroy();
      await new Promise((r) => {
        first.socket.once('close', r);
        first.socket.destroy();
      });
      // The proxy sees the close asynchronously: retry until the slot is free.
      let third = await open();
      for (let i = 0; i < 50 && third.status !== 200; i++) {
        third.socket.destroy();
        await new Promise((r) => setTimeout(r, 20));
        third = await open();
      }
      expect(third.status).toBe(200);
      third.socket.destroy();
    } finally {
      await limited.remove('ws3');
    }
  });
});
