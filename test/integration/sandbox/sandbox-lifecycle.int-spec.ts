import { WorkspaceError } from '@h/contracts';
import { DockerSandboxDriver, SandboxWorkspace, type SandboxRecord } from '@h/sandbox';
import { cleanup, docker, dockerExec, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix, waitFor } from './sandbox-test-kit';

const prefix = testPrefix();
let driver: DockerSandboxDriver;

beforeAll(async () => {
  driver = await makeDriver(prefix);
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
});

const workspace = (record: SandboxRecord) => new SandboxWorkspace(() => driver.connect(record));

describe('sandbox containment', () => {
  let bystander: SandboxRecord;
  beforeAll(async () => {
    bystander = await driver.ensure(spec('bystander'));
  });

  it('should contain a fork bomb inside its pids limit while other sandboxes keep working', async () => {
    const bombed = await driver.ensure(spec('bomb', { limits: { pids: 128 } }));
    const ws = workspace(bombed);
    const bomb = ws.exec('bomb() { bomb | bomb & }; bomb; sleep 60', { timeoutMs: 4000 });
    // While it rages: the bystander answers, and so does the bombed sandbox's own daemon.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await workspace(bystander).exec('echo alive')).stdout).toBe('alive\n');
    await expect((await driver.connect(bombed)).call('health', {})).resolves.toMatchObject({ ok: true });
    const r = await bomb;
    // Either the timeout killed its group or its own shell could not fork any more.
    expect(r.exitCode).not.toBe(0);
    // Once the group is killed the sandbox is usable again.
    const after = await waitFor(async () => {
      const x = await ws.exec('echo recovered');
      return x.exitCode === 0 ? x : null;
    }, 30_000, 'the bombed sandbox to recover');
    expect(after.stdout).toBe('recovered\n');
    // It ran into the container's pids limit (the cgroup counts refused forks), not the host's.
    const events = await ws.exec('cat /sys/fs/cgroup/pids/pids.events 2>/dev/null || cat /sys/fs/cgroup/pids.events');
    expect(Number(/max (\d+)/.exec(events.stdout)?.[1])).toBeGreaterThan(0);
  });

  it('should OOM-kill a memory hog, not the daemon, while other sandboxes keep working', async () => {
    const hog = await driver.ensure(spec('hog', { limits: { memoryBytes: 256 * 1024 * 1024 } }));
    const client = await driver.connect(hog);
    const before = await client.call('health', {});
    const ws = workspace(hog);
    const r = await ws.exec('python3 -c "x = bytearray(b\'y\') * (1024 ** 3); print(len(x))"');
    expect(r.exitCode === 137 || r.signal === 'SIGKILL').toBe(true);
    expect(r.stdout).toBe('');
    const after = await client.call('health', {});
    expect(after.pid).toBe(before.pid);
    expect((await workspace(bystander).exec('echo alive')).stdout).toBe('alive\n');
  });
});

describe('sandbox lifecycle', () => {
  it('should detect a killed daemon and recover with the files intact', async () => {
    const record = await driver.ensure(spec('killed'));
    const ws = workspace(record);
    await ws.writeFile('keep.txt', 'survives');
    const client = await driver.connect(record);
    const { pid } = await client.call('health', {});
    const closed = new Promise((r) => client.once('close', r));
    await dockerExec(record.name, ['kill', '-9', String(pid)]);
    await closed;
    expect(client.closed).toBe(true);
    // The next use reconnects (Docker's restart policy or the driver's start brings it back).
    expect(await ws.readTextFile('keep.txt')).toBe('survives');
    const fresh = await driver.connect(record);
    expect(fresh).not.toBe(client);
    expect((await fresh.call('health', {})).uptimeMs).toBeLessThan(60_000);
  });

  it('should re-create a removed container on its volume with the files intact', async () => {
    const record = await driver.ensure(spec('recreated'));
    await workspace(record).writeFile('src/main.py', 'print(1)\n');
    const oldId = (await inspect(record)).Id;
    await docker.getContainer(record.name).remove({ force: true });
    const again = await driver.ensure(spec('recreated'), record);
    expect(again.containerId).not.toBe(oldId);
    expect(again.volume).toBe(record.volume);
    expect(await workspace(again).readTextFile('src/main.py')).toBe('print(1)\n');
  });

  it('should keep two workspaces from seeing each other\'s files', async () => {
    const a = await driver.ensure(spec('iso-a'));
    const b = await driver.ensure(spec('iso-b'));
    await workspace(a).writeFile('secret.txt', 'only for a');
    const wsB = workspace(b);
    expect(await wsB.stat('secret.txt')).toBeNull();
    const look = await wsB.exec('ls -a /workspace; cat /workspace/secret.txt 2>&1; ls /var/lib/docker 2>&1 | head -1');
    expect(look.stdout).not.toContain('only for a');
    expect(look.stdout).not.toMatch(/secret\.txt\n/);
    const wsVolume = async (r: SandboxRecord) => (await inspect(r)).Mounts.find((m) => m.Destination === '/workspace')?.Name;
    expect(await wsVolume(a)).not.toBe(await wsVolume(b));
  });

  it('should restart a stopped sandbox on next use, and stop idle ones by itself', async () => {
    const idleDriver = await makeDriver(prefix, { idleTimeoutMs: 1500 });
    try {
      const record = await idleDriver.ensure(spec('idle'));
      const ws = new SandboxWorkspace(() => idleDriver.connect(record));
      await ws.writeFile('note.txt', 'still here');
      // A command running longer than the idle timeout is use, not idleness.
      expect(await ws.exec('sleep 3.5; echo finished')).toMatchObject({ exitCode: 0, stdout: 'finished\n' });
      await waitFor(async () => (await idleDriver.status(record)).state === 'stopped', 20_000, 'the idle stop');
      expect(await ws.readTextFile('note.txt')).toBe('still here');
      expect((await idleDriver.status(record)).state).toBe('running');
      await idleDriver.stop(record);
      expect((await idleDriver.status(record)).state).toBe('stopped');
      expect((await ws.exec('cat note.txt')).stdout).toBe('still here');
    } finally {
      await idleDriver.close();
    }
  });

  it('should not idle-stop a sandbox that another process keeps using', async () => {
    // Two drivers stand for two processes (the api's terminals, a worker's agent run).
    const sweeper = await makeDriver(prefix, { idleTimeoutMs: 1500 });
    try {
      const record = await sweeper.ensure(spec('shared'));
      const other = new SandboxWorkspace(() => driver.connect(record));
      const until = Date.now() + 4500;
      while (Date.now() < until) {
        await other.exec('true');
        await new Promise((r) => setTimeout(r, 250));
      }
      expect((await sweeper.status(record)).state).toBe('running');
      await waitFor(async () => (await sweeper.status(record)).state === 'stopped', 20_000, 'the idle stop once unused');
    } finally {
      await sweeper.close();
    }
  });

  it('should serve a new workspace from the warm pool and keep its volume as the workspace\'s', async () => {
    const pooled = await makeDriver(prefix, { poolSize: 1 });
    try {
      await pooled.fillPool();
      expect(pooled.warmCount).toBe(1);
      const record = await pooled.ensure(spec('pooled'));
      expect(record.name).toBe(pooled.containerName('pooled'));
      expect(record.volume).toContain('vol-pool-');
      const ws = new SandboxWorkspace(() => pooled.connect(record));
      await ws.writeFile('from-pool.txt', 'mine now');
      // Re-created later (e.g. after an upgrade), it mounts the same volume.
      await docker.getContainer(record.name).remove({ force: true });
      const again = await pooled.ensure(spec('pooled'), record);
      expect((await inspect(again)).Config.Labels).toMatchObject({ 'h.workspace': 'pooled' });
      expect(await new SandboxWorkspace(() => pooled.connect(again)).readTextFile('from-pool.txt')).toBe('mine now');
      await waitFor(async () => pooled.warmCount === 1, 20_000, 'the pool to refill');
    } finally {
      await pooled.close();
    }
  });

  it('should remove orphans of its own namespace at startup, keep other namespaces and unclaimed data', async () => {
    const known = await driver.ensure(spec('known'));
    const orphan = await driver.ensure(spec('orphan'));
    const neighbourPrefix = testPrefix();
    const neighbour = await makeDriver(neighbourPrefix);
    const restarted = await makeDriver(prefix);
    try {
      const theirs = await neighbour.ensure(spec('neighbour'));
      const report = await restarted.reconcile([known]);
      expect(report.removedContainers).toContain(orphan.name);
      expect(report.removedContainers).not.toContain(known.name);
      expect(report.removedContainers).not.toContain(theirs.name);
      expect(report.orphanVolumes).toContain(orphan.volume);
      // A workspace's state volume goes with its workspace volume, never reported on its own.
      expect(report.orphanVolumes.filter((v) => v.endsWith('-state'))).toEqual([]);
      expect((await restarted.status(orphan)).state).toBe('missing');
      expect((await restarted.status(known)).state).toBe('running');
      expect((await neighbour.status(theirs)).state).toBe('running');
    } finally {
      await restarted.close();
      await neighbour.close();
      await cleanup(neighbourPrefix);
    }
  });

  it('should adopt warm containers left by a previous process instead of starting new ones', async () => {
    const own = testPrefix();
    const before = await makeDriver(own, { poolSize: 1 });
    const after = await makeDriver(own, { poolSize: 1 });
    try {
      await before.fillPool();
      const report = await after.reconcile([]);
      expect(report.adoptedPool).toHaveLength(1);
      expect(report.removedContainers).toEqual([]);
      expect(after.warmCount).toBe(1);
      const record = await after.ensure(spec('adopted'));
      expect(record.volume).toContain('vol-pool-');
      expect((await new SandboxWorkspace(() => after.connect(record)).exec('echo ready')).stdout).toBe('ready\n');
    } finally {
      await after.close();
      await before.close();
      await cleanup(own);
    }
  });

  it('should remove the container and its files with the workspace', async () => {
    const record = await driver.ensure(spec('doomed'));
    await workspace(record).writeFile('x.txt', 'x');
    await driver.remove(record);
    expect((await driver.status(record)).state).toBe('missing');
    await expect(docker.getVolume(record.volume).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(new SandboxWorkspace(async () => {
      throw new Error('gone');
    }).readTextFile('x.txt')).rejects.toBeInstanceOf(WorkspaceError);
  });
});
