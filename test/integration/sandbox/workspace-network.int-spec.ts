import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceRepository } from '@h/db';
import { SandboxManager } from '@h/workspaces';
import { startStack, waitFor, type TestStack } from '../../support/api-harness';
import { errorCode, teamWithRoles, type TeamFixture } from '../api/team-fixture';
import { docker } from './sandbox-test-kit';

// The whole path: an admin turns network access on over the API with an allowlist, the worker's
// sandbox manager serves the workspace's proxy socket and re-creates the container with it, a
// command inside reaches the allowed host (this test's loopback server, allowed only through
// H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS), the connection shows up in the admins' egress log, and
// turning network access off refuses the next connection at once.
let stack: TestStack;
let f: TeamFixture;
let target: http.Server;
let port: number;
let socketDir: string;

beforeAll(async () => {
  target = http.createServer((_req, res) => res.end('allowed host says hi'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  socketDir = mkdtempSync(path.join(os.tmpdir(), 'h-egress-'));
  stack = await startStack({
    worker: true,
    env: { H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS: 'true', EGRESS_PORTS: String(port), EGRESS_SOCKET_DIR: socketDir, SANDBOX_DISK_MB: '0' },
  });
  f = await teamWithRoles(stack.url, 'egress');
  // The setup job opens the sandbox once on its own; let it finish before the settings change.
  await waitFor('workspace ready', async () => (await f.owner.client.get(`/api/v1/workspaces/${f.workspaceId}`)).body.status === 'ready', 10 * 60_000);
}, 30 * 60_000);

afterAll(async () => {
  await stack?.close();
  await new Promise((r) => target?.close(r));
  rmSync(socketDir, { recursive: true, force: true });
});

async function openSandbox() {
  const worker = stack.worker;
  if (!worker) throw new Error('this test needs the in-process worker');
  const row = await worker.get(WorkspaceRepository, { strict: false }).findById(f.workspaceId);
  if (!row) throw new Error('workspace vanished');
  return worker.get(SandboxManager, { strict: false }).open(row);
}

describe('workspace network access', () => {
  const ws = () => `/api/v1/workspaces/${f.workspaceId}`;

  it('should keep allowlist edits to the network role and accept only host names', async () => {
    expect((await f.member.client.patch(ws(), { allowedHosts: ['localhost'] })).status).toBe(403);
    for (const bad of ['10.0.0.1', 'http://registry.example.org', 'localhost:80', '*', '*.com']) {
      const res = await f.admin.client.patch(ws(), { allowedHosts: [bad] });
      expect([res.status, errorCode(res)]).toEqual([400, 'INVALID_ALLOWED_HOST']);
    }
    const ok = await f.admin.client.patch(ws(), { networkEnabled: true, allowedHosts: ['LocalHost', 'localhost', '*.npmjs.org'] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ networkEnabled: true, allowedHosts: ['localhost', '*.npmjs.org'] });
  });

  it('should reach an allowed host from inside through the proxy, with network none, and log it for admins', async () => {
    const { workspace, record } = await openSandbox();
    const info = await docker.getContainer(record.name).inspect();
    expect(info.HostConfig.NetworkMode).toBe('none');
    // Besides the egress socket only the model gateway's run sockets (read-only, every sandbox has them)
    // and sandboxd's own socket dir (the host's direct transport to it, SANDBOX_SOCKET_DIR).
    expect(outwardBinds(info.HostConfig.Binds)).toEqual([`${path.join(socketDir, f.workspaceId)}:/run/h/egress:ro`, `${stack.config.modelGatewaySocketDir}:/run/h/model:ro`]);
    // localhost is in NO_PROXY (the sandbox's own loopback): send it to the proxy explicitly.
    const r = await workspace.exec(`curl -sS --max-time 20 --noproxy '' http://localhost:${port}/`);
    expect(r.stdout).toBe('allowed host says hi');
    const refused = await workspace.exec(`curl -sS -v --max-time 20 --noproxy '' --proxytunnel http://other.example:${port}/`);
    expect(refused.stderr).toMatch(/x-h-egress-refused: NOT_ALLOWLISTED/i);
    const log = await waitFor('egress log rows', async () => {
      const res = await f.admin.client.get(`${ws()}/egress-log`);
      return res.body.items?.length >= 2 ? res.body.items : null;
    });
    expect(log[0]).toMatchObject({ kind: 'connect', host: 'other.example', allowed: false, reason: 'NOT_ALLOWLISTED', bytesIn: 0 });
    expect(log[1]).toMatchObject({ kind: 'http', host: 'localhost', port, allowed: true, reason: null, address: '127.0.0.1' });
    expect(log[1].bytesIn).toBeGreaterThan(0);
    expect((await f.member.client.get(`${ws()}/egress-log`)).status).toBe(403);
  });

  it('should refuse the next connection as soon as network access is turned off, and drop the socket on the next start', async () => {
    const { workspace } = await openSandbox();
    expect((await f.admin.client.patch(ws(), { networkEnabled: false })).status).toBe(200);
    const r = await workspace.exec(`curl -sS -v --max-time 20 --noproxy '' http://localhost:${port}/`);
    expect(r.stderr).toMatch(/x-h-egress-refused: NETWORK_OFF/i);
    const { record } = await openSandbox();
    const info = await docker.getContainer(record.name).inspect();
    expect(outwardBinds(info.HostConfig.Binds)).toEqual([`${stack.config.modelGatewaySocketDir}:/run/h/model:ro`]);
    expect(info.HostConfig.NetworkMode).toBe('none');
  });
});

/** A sandbox's binds other than sandboxd's own socket dir, of which there is at most one. */
function outwardBinds(binds: string[] | null | undefined): string[] {
  const all = binds ?? [];
  const daemon = all.filter((b) => b.endsWith(':/run/sandboxd'));
  expect(daemon.length).toBeLessThanOrEqual(1);
  return all.filter((b) => !daemon.includes(b));
}
