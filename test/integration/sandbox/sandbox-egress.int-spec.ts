import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EgressProxy, systemLookup, type EgressLogEntry, type EgressPolicy, type Lookup } from '@h/egress';
import type { DockerSandboxDriver, SandboxClient, SandboxRecord } from '@h/sandbox';
import { cleanup, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix, waitFor } from './sandbox-test-kit';

// A network-enabled sandbox against the real egress proxy, over the unix socket mounted into it.
// The only server anything connects to is this test's loopback listener; names that stand for
// private and metadata addresses come from the proxy's injected resolver and are refused before
// any connection is made, so no packet goes to another address.
const prefix = testPrefix();
let dir: string;
let driver: DockerSandboxDriver;
let target: http.Server;
let port: number;
let hits = 0;
const logs: EgressLogEntry[] = [];
const proxies: EgressProxy[] = [];

// Test names: allowed.test stands for an allowed public host (the loopback listener).
const lookup: Lookup = async (host) => {
  if (host === 'allowed.test') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'private.test') return [{ address: '10.0.0.1', family: 4 }];
  if (host === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
  if (host === 'ula.test') return [{ address: 'fd00::1', family: 6 }];
  return systemLookup(host); // `localhost` resolves for real
};
const allowlist = ['allowed.test', 'private.test', 'metadata.test', 'ula.test', 'localhost'];

async function networkSandbox(workspaceId: string, allowLoopbackForTests: boolean, policy: EgressPolicy) {
  const proxy = new EgressProxy({ socketDir: dir, policy: async () => policy, onLog: (e) => logs.push(e), lookup, allowedPorts: 'any', allowLoopbackForTests });
  proxies.push(proxy);
  await proxy.serve(workspaceId);
  const record = await driver.ensure(spec(workspaceId, { network: 'egress' }));
  return { proxy, record, client: await driver.connect(record) };
}

async function sh(client: SandboxClient, command: string) {
  return client.call('exec.run', { command, timeoutMs: 30_000 });
}

/** The proxy's refusal code as curl saw it (-v prints response headers on stderr). */
function refusal(stderr: string): string | undefined {
  return /x-h-egress-refused: (\w+)/i.exec(stderr)?.[1];
}

let strict: { record: SandboxRecord; client: SandboxClient };
let loose: { record: SandboxRecord; client: SandboxClient };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'h-egress-'));
  target = http.createServer((req, res) => {
    hits++;
    res.end(`hello from the allowed host: ${req.method} ${req.url}`);
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  driver = await makeDriver(prefix, { egressSocketDir: dir });
  strict = await networkSandbox('strict', false, { networkEnabled: true, allowedHosts: allowlist });
  loose = await networkSandbox('loose', true, { networkEnabled: true, allowedHosts: ['allowed.test'] });
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
  await Promise.all(proxies.map((p) => p.close()));
  await new Promise((r) => target?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('network-enabled sandbox', () => {
  it('should keep network none and get only the proxy socket dir, read-only, and no Docker socket', async () => {
    const info = await inspect(strict.record);
    expect(info.HostConfig.NetworkMode).toBe('none');
    expect(info.HostConfig.Binds).toEqual([`${path.join(dir, 'strict')}:/run/h/egress:ro`]);
    expect(info.Config.Env).toContain('SANDBOXD_EGRESS_SOCKET=/run/h/egress/egress.sock');
    expect(JSON.stringify(info.Mounts)).not.toContain('docker.sock');
    expect(info.Mounts.find((m) => m.Destination === '/run/h/egress')).toMatchObject({ RW: false });
  });

  it('should have no network interface but loopback', async () => {
    const r = await sh(strict.client, "awk -F: 'NR>2 {gsub(/ /, \"\", $1); print $1}' /proc/net/dev; ls /sys/class/net");
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['lo', 'lo']);
  });

  it('should offer the proxy to commands as HTTP(S)_PROXY on loopback', async () => {
    const r = await sh(strict.client, 'env | grep -i _proxy | sort');
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'HTTPS_PROXY=http://127.0.0.1:3128',
      'HTTP_PROXY=http://127.0.0.1:3128',
      'NO_PROXY=localhost,127.0.0.1',
      'http_proxy=http://127.0.0.1:3128',
      'https_proxy=http://127.0.0.1:3128',
      'no_proxy=localhost,127.0.0.1',
    ]);
  });

  it('should let an allowed request through, forwarded and tunnelled (loopback allowed by the test setting)', async () => {
    const before = hits;
    const forwarded = await sh(loose.client, `curl -sS --max-time 20 http://allowed.test:${port}/fwd`);
    expect(forwarded.stdout).toBe('hello from the allowed host: GET /fwd');
    const tunnelled = await sh(loose.client, `curl -sS --max-time 20 --proxytunnel http://allowed.test:${port}/tunnel`);
    expect(tunnelled.stdout).toBe('hello from the allowed host: GET /tunnel');
    expect(hits).toBe(before + 2);
    // A tunnel's log line is written when the tunnel closes, which may come just after curl exits.
    const allowedKinds = () => logs.filter((l) => l.workspaceId === 'loose' && l.allowed).map((l) => l.kind);
    await waitFor(async () => allowedKinds().length >= 2, 10_000, 'the tunnel to be logged');
    expect(allowedKinds()).toEqual(['http', 'connect']);
  });

  it.each([
    ['a literal private IP', 'http://10.0.0.1/', 'LITERAL_IP'],
    ['a literal metadata IP', 'http://169.254.169.254/latest/meta-data/', 'LITERAL_IP'],
    ['a numeric spelling of loopback', 'http://2130706433/', 'LITERAL_IP'],
    ['a name resolving to a private address', 'http://private.test/', 'PRIVATE_ADDRESS'],
    ['a name resolving to cloud metadata', 'http://metadata.test/latest/meta-data/', 'LINK_LOCAL_ADDRESS'],
    ['a name resolving to an IPv6 unique-local address', 'http://ula.test/', 'PRIVATE_ADDRESS'],
    ['a name resolving to loopback (localhost)', `http://localhost:${0}/`, 'LOOPBACK_ADDRESS'],
    ['a name not on the allowlist', 'http://example.org/', 'NOT_ALLOWLISTED'],
  ])('should refuse %s before connecting', async (_what, url, code) => {
    const u = url.replace(':0/', `:${port}/`);
    const before = hits;
    // localhost is in NO_PROXY (the sandbox's own loopback); send it to the proxy anyway.
    for (const flags of ['--noproxy ""', '--noproxy "" --proxytunnel']) {
      const r = await sh(strict.client, `curl -sS -v --max-time 20 ${flags} ${u}`);
      expect(refusal(r.stderr)).toBe(code);
    }
    expect(hits).toBe(before);
    expect(logs.filter((l) => l.workspaceId === 'strict').at(-1)).toMatchObject({ allowed: false, reason: code, bytesIn: 0, bytesOut: 0 });
  });

  it('should refuse an allowed name that resolves to loopback when the test setting is off', async () => {
    const r = await sh(strict.client, `curl -sS -v --max-time 20 http://allowed.test:${port}/`);
    expect(refusal(r.stderr)).toBe('LOOPBACK_ADDRESS');
  });

  it('should give a sandbox without network access neither the socket nor proxy variables', async () => {
    const offline = await driver.ensure(spec('offline'));
    const info = await inspect(offline);
    expect(info.HostConfig.Binds).toEqual([]);
    const r = await sh(await driver.connect(offline), 'env | grep -ci _proxy; test -e /run/h/egress && echo mounted || echo absent');
    expect(r.stdout).toBe('0\nabsent\n');
  });
});
