import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EgressProxy, type EgressLogEntry } from './egress-proxy';

// The proxy's TCP listener (sandbox pods on a cluster network) against a loopback server of the
// test's own: the connection's source address names the workspace, its policy decides.
describe(`${EgressProxy.name} over TCP`, () => {
  let target: http.Server;
  let targetPort: number;
  let proxy: EgressProxy;
  let proxyPort: number;
  let sandboxAt: string | null = '127.0.0.1';
  const logs: EgressLogEntry[] = [];
  const asked: string[] = [];

  beforeAll(async () => {
    target = http.createServer((req, res) => res.end(`hello ${req.url}`));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetPort = (target.address() as AddressInfo).port;
    proxy = new EgressProxy({
      socketDir: '/nonexistent',
      policy: async (id) => (id === 'ws-tcp' ? { networkEnabled: true, allowedHosts: ['allowed.test'] } : null),
      onLog: (e) => logs.push(e),
      allowedPorts: 'any',
      allowLoopbackForTests: true,
      lookup: async (host) => {
        if (host === 'allowed.test') return [{ address: '127.0.0.1', family: 4 }];
        throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      },
    });
    proxyPort = (
      await proxy.serveTcp(0, '127.0.0.1', async (address) => {
        asked.push(address);
        return address === sandboxAt ? 'ws-tcp' : null;
      })
    ).port;
  });

  afterAll(async () => {
    await proxy.close();
    await new Promise((r) => target.close(r));
  });

  function get(url: string): Promise<{ status: number; refused?: string; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: proxyPort, path: url, headers: { host: new URL(url).host } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, refused: res.headers['x-h-egress-refused'] as string | undefined, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  function connect(authority: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('should forward for the workspace whose sandbox holds the source address, under its policy', async () => {
    sandboxAt = '127.0.0.1';
    expect(await get(`http://allowed.test:${targetPort}/x`)).toMatchObject({ status: 200, body: 'hello /x' });
    expect(asked).toContain('127.0.0.1');
    expect(logs.at(-1)).toMatchObject({ workspaceId: 'ws-tcp', allowed: true, host: 'allowed.test' });
    expect(await get(`http://other.test:${targetPort}/`)).toMatchObject({ status: 403, refused: 'NOT_ALLOWLISTED' });
    expect(await connect(`allowed.test:${targetPort}`)).toBe(200);
  });

  it('should refuse connections from an address that is no network-enabled sandbox', async () => {
    sandboxAt = null;
    expect(await get(`http://allowed.test:${targetPort}/x`)).toMatchObject({ status: 403, refused: 'NETWORK_OFF' });
    expect(await connect(`allowed.test:${targetPort}`)).toBe(403);
  });
});
