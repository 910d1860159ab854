import { DockerSandboxDriver, SandboxWorkspace, type SandboxRecord } from '@h/sandbox';
import { cleanup, docker, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix } from './sandbox-test-kit';

// Issue 10 point 7: a run's checkpoint lives in the workspace's H-internal state volume, so a fork
// or revert still finds it after the sandbox stopped (idle reaper, restart, re-created container).
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
const volumeExists = (name: string) =>
  docker
    .getVolume(name)
    .inspect()
    .then(() => true)
    .catch(() => false);

describe('checkpoints across a sandbox stop', () => {
  it('should restore a checkpoint made before the container was stopped and removed', async () => {
    const record = await driver.ensure(spec('ckpt'));
    const ws = workspace(record);
    await ws.writeFile('src/app.py', 'print("before")\n');
    const { id } = await (await driver.connect(record)).call('checkpoint.create', {});
    await ws.writeFile('src/app.py', 'print("after")\n');
    await ws.writeFile('src/new.py', 'created later\n');

    // The driver's stop, then the container gone as well (a restart re-creates it on its volumes).
    await driver.stop(record);
    expect((await driver.status(record)).state).toBe('stopped');
    await driver.remove(record, { keepVolume: true });
    const again = await driver.ensure(spec('ckpt'), record);
    expect(again.containerId).not.toBe(record.containerId);

    const restored = await (await driver.connect(again)).call('checkpoint.restore', { id });
    expect(restored.removed).toBe(1);
    const ws2 = workspace(again);
    expect(await ws2.readTextFile('src/app.py')).toBe('print("before")\n');
    expect(await ws2.stat('src/new.py')).toBeNull();
  });

  it('should keep the state out of the user\'s files and remove it with the workspace', async () => {
    const record = await driver.ensure(spec('ckpt-hidden'));
    const ws = workspace(record);
    await ws.exec('git init -q . && echo x > a.txt');
    await (await driver.connect(record)).call('checkpoint.create', {});
    const look = await ws.exec('ls -A /workspace; git status --porcelain');
    expect(look.stdout.split('\n').filter(Boolean).sort()).toEqual(['.git', '?? a.txt', 'a.txt']);
    const state = (await inspect(record)).Mounts.find((m) => m.Destination === '/var/lib/h-state');
    expect(state?.Name).toBe(`${record.volume}-state`);

    await driver.remove(record);
    expect(await volumeExists(record.volume)).toBe(false);
    expect(await volumeExists(`${record.volume}-state`)).toBe(false);
  });
});
