// Sandboxes on several Docker hosts (issue 15): placement records a host per workspace, every later
// call goes there, a host that stops answering fails only its own workspaces (with its name) and
// takes no new ones, and each host's driver reconciles only what it placed. The second "host" is a
// unix-socket forwarder to this machine's engine that the test starts and stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { LABEL_HOST, MultiHostDockerDriver, namespaceFilters, SandboxHostUnavailableError, type DockerHost, type SandboxRecord } from '@h/sandbox';
import { startStack, waitFor, type TestStack } from '../../support/api-harness';
import { createWorkspace, sql, teamWithRoles, type TeamFixture } from '../api/team-fixture';
import { expectError, filesApi, rawRequest } from '../files/files-fixture';
import { readTarGz } from '../import/archive-fixture';
import { cleanup, docker, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix, TEST_LABELS } from './sandbox-test-kit';

/** A second endpoint of the local engine: connections to `path` are piped to the engine's socket. */
class EngineForwarder {
  private server: Server | null = null;
  private readonly open = new Set<Socket>();
  constructor(readonly path: string) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection('/var/run/docker.sock');
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.on('close', () => this.open.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.path, resolve));
  }

  async stop(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

describe('sandboxes on several Docker hosts', () => {
  const prefix = testPrefix();
  const dir = mkdtempSync(join(tmpdir(), 'h-hosts-'));
  const forwarder = new EngineForwarder(join(dir, 'engine-b.sock'));
  let multi: MultiHostDockerDriver;
  let hosts: DockerHost[];

  beforeAll(async () => {
    await forwarder.start();
    const endpoints: Array<[string, Docker]> = [
      ['a', docker],
      ['b', new Docker({ socketPath: forwarder.path })],
    ];
    hosts = [];
    for (const [name, client] of endpoints) {
      const extraLabels = { ...TEST_LABELS, [LABEL_HOST]: name };
      const driver = await makeDriver(prefix, { docker: client, extraLabels });
      hosts.push({ name, docker: client, driver, sharesFilesystem: true, labelFilters: namespaceFilters(prefix, extraLabels) });
    }
    multi = new MultiHostDockerDriver(hosts, { diskBudgets: false, pingTimeoutMs: 1_000 });
  }, IMAGE_TIMEOUT_MS);

  afterAll(async () => {
    await multi?.close();
    await forwarder.stop();
    await cleanup(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (record: SandboxRecord, command: string) => (await multi.connect(record)).call('exec.run', { command });

  it('should place, route, fail one host alone and bring it back', async () => {
    const one = await multi.ensure(spec('ws-one'));
    const two = await multi.ensure(spec('ws-two'));
    // The fewest sandboxes first, the first listed on a tie.
    expect([one.host, two.host]).toEqual(['a', 'b']);
    expect((await inspect(one)).Config.Labels[LABEL_HOST]).toBe('a');
    expect((await inspect(two)).Config.Labels[LABEL_HOST]).toBe('b');
    expect((await run(one, 'echo one')).stdout).toBe('one\n');
    expect((await run(two, 'echo two')).stdout).toBe('two\n');

    await forwarder.stop();
    await expect(multi.status(two)).rejects.toBeInstanceOf(SandboxHostUnavailableError);
    await expect(multi.status(two)).rejects.toThrow(/Docker host "b"/);
    expect((await multi.status(one)).state).toBe('running');
    // b does not answer: a new workspace goes to a, though a holds more.
    const three = await multi.ensure(spec('ws-three'));
    expect(three.host).toBe('a');

    await forwarder.start();
    expect((await multi.status(two)).state).toBe('running');
    expect((await run(two, 'echo back')).stdout).toBe('back\n');

    // Reconcile with every record removes nothing; host a's own reconcile, told only of its
    // records, leaves b's container alone although both endpoints reach one engine.
    expect((await multi.reconcile([one, two, three])).removedContainers).toEqual([]);
    expect((await hosts[0].driver.reconcile([one, three])).removedContainers).toEqual([]);
    expect((await inspect(two)).State.Running).toBe(true);
  }, 180_000);
});

// The same through the product: SANDBOX_DOCKER_HOSTS configures the worker and the api, each
// workspace's host is recorded in Postgres, files and the archive download reach the right engine,
// and a download from a workspace whose host is down answers 503 naming the host.
describe('SANDBOX_DOCKER_HOSTS in the api and the worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'h-hosts-'));
  const forwarder = new EngineForwarder(join(dir, 'engine-b.sock'));
  let stack: TestStack;
  let f: TeamFixture;
  let second: string;

  beforeAll(async () => {
    await forwarder.start();
    stack = await startStack({ worker: true, env: { SANDBOX_DOCKER_HOSTS: `a=unix:///var/run/docker.sock,b=unix://${forwarder.path}`, SANDBOX_DISK_MB: '0' } });
    f = await teamWithRoles(stack.url, 'hosts');
    const ready = (id: string) => waitFor(`workspace ${id} ready`, async () => (await f.owner.client.get(`/api/v1/workspaces/${id}`)).body.status === 'ready', 10 * 60_000);
    await ready(f.workspaceId);
    second = await createWorkspace(f.owner, f.teamId, 'hosts-second');
    await ready(second);
  }, 30 * 60_000);

  afterAll(async () => {
    await stack?.close();
    await forwarder.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should spread workspaces over the hosts, record where, and route every call there', async () => {
    const rows = await sql<{ workspaceId: string; host: string }>('SELECT "workspaceId", host FROM "Sandbox" WHERE "workspaceId" = ANY($1::uuid[])', [[f.workspaceId, second]]);
    const hostOf = new Map(rows.map((r) => [r.workspaceId, r.host]));
    expect([hostOf.get(f.workspaceId), hostOf.get(second)].sort()).toEqual(['a', 'b']);
    const onB = hostOf.get(second) === 'b' ? second : f.workspaceId;
    const onA = onB === second ? f.workspaceId : second;

    for (const id of [onA, onB]) {
      const created = await f.member.client.post(filesApi(id).entry('where.txt'), { type: 'file', content: `I am ${hostOf.get(id)}\n` });
      expect(created.status).toBe(201);
      const down = await rawRequest(f.viewer.client, 'GET', `/api/v1/workspaces/${id}/archive?format=tar.gz`, undefined);
      expect(down.status).toBe(200);
      expect((await readTarGz(down.bytes)).get('where.txt')?.toString()).toBe(`I am ${hostOf.get(id)}\n`);
    }

    // Opening the sandboxes again (the api's first calls did) keeps where they live.
    const after = await sql<{ workspaceId: string; host: string; record: { host?: string } }>('SELECT "workspaceId", host, record FROM "Sandbox" WHERE "workspaceId" = ANY($1::uuid[])', [[onA, onB]]);
    expect(after.map((r) => [r.workspaceId === onB ? 'onB' : 'onA', r.host, r.record.host]).sort()).toEqual([['onA', 'a', 'a'], ['onB', 'b', 'b']]);

    await forwarder.stop();
    try {
      const refused = await rawRequest(f.viewer.client, 'GET', `/api/v1/workspaces/${onB}/archive?format=tar.gz`, undefined);
      expectError(refused, 503, 'SANDBOX_HOST_UNAVAILABLE');
      expect(refused.json.error.message).toContain('"b"');
      expect((await rawRequest(f.viewer.client, 'GET', `/api/v1/workspaces/${onA}/archive?format=tar.gz`, undefined)).status).toBe(200);
    } finally {
      await forwarder.start();
    }
    const back = await rawRequest(f.viewer.client, 'GET', `/api/v1/workspaces/${onB}/archive?format=tar.gz`, undefined);
    expect(back.status).toBe(200);
  }, 180_000);
});
