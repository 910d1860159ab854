import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { DockerSandboxDriver, SandboxWorkspace, startDockerProxy, type DockerProxy } from '@h/sandbox';
import { cleanup, docker, IMAGE_TIMEOUT_MS, makeDriver, spec, testPrefix } from './sandbox-test-kit';

// H's Docker socket proxy in front of the real engine, over unix sockets: the sandbox driver works
// through it unchanged, and everything outside H's own sandboxes gets a 403.
const prefix = testPrefix();
const dir = mkdtempSync(join(tmpdir(), 'h-docker-proxy-'));
const socketPath = join(dir, 'docker.sock');
let proxy: DockerProxy;
let driver: DockerSandboxDriver;
let image: string;
const refused: string[] = [];
/** A container of the same image that is not H's: no H labels. */
let foreignId: string;

/** A raw request through the proxy (what a compromised worker could send). */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      { socketPath, method, path, headers: data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

beforeAll(async () => {
  proxy = await startDockerProxy({ listen: socketPath, upstream: '/var/run/docker.sock', prefix, onDeny: (e) => refused.push(`${e.method} ${e.url}`) });
  driver = await makeDriver(prefix, { docker: new Docker({ socketPath }) });
  image = (driver as unknown as { opts: { image: string } }).opts.image;
  // Named with H's prefix on purpose: the name alone must not make it H's.
  const foreign = await docker.createContainer({ name: `${prefix}foreign`, Image: image, Labels: { 'h.test': '1' } });
  foreignId = foreign.id;
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await proxy?.close();
  await cleanup(prefix);
  rmSync(dir, { recursive: true, force: true });
});

describe('docker socket proxy', () => {
  it("should carry the driver's whole lifecycle: create, start, exec streams, stop, list, remove", async () => {
    const record = await driver.ensure(spec('through-proxy'));
    const ws = new SandboxWorkspace(() => driver.connect(record));
    expect((await ws.exec('echo hello from behind the proxy')).stdout).toBe('hello from behind the proxy\n');
    const report = await driver.reconcile([record]);
    expect(report.removedContainers).toEqual([]);
    await driver.stop(record);
    expect((await driver.status(record)).state).toBe('stopped');
    await driver.remove(record);
    expect((await driver.status(record)).state).toBe('missing');
    expect(refused).toEqual([]);
  });

  it("should refuse calls on a container that is not H's, and leave it out of lists", async () => {
    for (const [method, path] of [
      ['GET', `/containers/${foreignId}/json`],
      ['POST', `/containers/${prefix}foreign/start`],
      ['DELETE', `/containers/${foreignId}?force=true`],
    ]) {
      const r = await call(method, path);
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 403 });
      expect(r.body.message).toMatch(/h docker proxy/);
    }
    const exec = await call('POST', `/containers/${foreignId}/exec`, { Cmd: ['id'], AttachStdout: true });
    expect(exec.status).toBe(403);
    const listed = await call('GET', '/containers/json?all=1');
    expect(listed.status).toBe(200);
    expect(listed.body.map((c: { Id: string }) => c.Id)).not.toContain(foreignId);
    // Still there: nothing reached the engine.
    expect((await docker.getContainer(foreignId).inspect()).Id).toBe(foreignId);
  });

  it('should refuse endpoints H does not use and containers it would never create', async () => {
    expect((await call('POST', '/v1.41/images/create?fromImage=alpine&tag=latest')).status).toBe(403);
    expect((await call('POST', '/build')).status).toBe(403);
    const sandboxBody = {
      Image: image,
      Labels: { 'h.managed': '1', 'h.ns': prefix, 'h.test': '1' },
      HostConfig: { NetworkMode: 'none' },
    };
    expect((await call('POST', `/containers/create?name=${prefix}evil`, { ...sandboxBody, HostConfig: { Privileged: true } })).status).toBe(403);
    expect((await call('POST', `/containers/create?name=${prefix}evil`, { ...sandboxBody, HostConfig: { Binds: ['/:/host'] } })).status).toBe(403);
    expect((await call('POST', `/containers/create?name=${prefix}evil`, { ...sandboxBody, HostConfig: { NetworkMode: 'host' } })).status).toBe(403);
    expect((await call('POST', '/volumes/create', { Name: `${prefix}evil`, Labels: sandboxBody.Labels, DriverOpts: { type: 'none', o: 'bind', device: '/' } })).status).toBe(403);
    // None of them exists.
    expect((await docker.listContainers({ all: true, filters: { name: [`${prefix}evil`] } })).length).toBe(0);
    // The same body without the dangerous part is H's kind of container, and goes through.
    const ok = await call('POST', `/containers/create?name=${prefix}plain`, sandboxBody);
    expect(ok.status).toBe(201);
    expect((await call('DELETE', `/containers/${prefix}plain?force=true`)).status).toBe(204);
  });

  it('should pass the engine\'s 404 through for a container that does not exist', async () => {
    expect((await call('GET', `/containers/${prefix}nothing/json`)).status).toBe(404);
  });
});
