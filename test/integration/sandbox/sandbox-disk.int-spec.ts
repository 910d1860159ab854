import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LoopDiskStore, loopDiskUnavailableReason, type DockerSandboxDriver, type SandboxClient, type SandboxRecord } from '@h/sandbox';
import { cleanup, docker, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix } from './sandbox-test-kit';

// Disk budgets: each workspace's /workspace is its own ext4 image of the budget, loop-mounted by
// the driver. Needs root (mount); on a machine without it the test says so and is skipped.
const prefix = testPrefix();
const BUDGET_MB = 48;
let unavailable: string | null = null;
let dir: string;
let driver: DockerSandboxDriver;
let a: SandboxRecord;
let b: SandboxRecord;
let ca: SandboxClient;
let cb: SandboxClient;

beforeAll(async () => {
  unavailable = await loopDiskUnavailableReason();
  if (unavailable) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'h-disks-'));
  driver = await makeDriver(prefix, { diskDir: dir, diskMb: BUDGET_MB });
  a = await driver.ensure(spec('disk-a'));
  b = await driver.ensure(spec('disk-b'));
  ca = await driver.connect(a);
  cb = await driver.connect(b);
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
  if (dir) {
    const store = new LoopDiskStore(path.join(dir, prefix), '1000:1000');
    for (const v of store.list()) await store.remove(v);
    rmSync(dir, { recursive: true, force: true });
  }
});

const run = (client: SandboxClient, command: string) => client.call('exec.run', { command, timeoutMs: 60_000 });
const maybe = (name: string, fn: () => Promise<void>) =>
  it(name, async () => {
    if (unavailable) return console.warn(`skipped: disk budgets unavailable here (${unavailable})`);
    await fn();
  });

describe('workspace disk budget', () => {
  maybe('should mount the budgeted image at /workspace and record its size', async () => {
    expect(a.diskMb).toBe(BUDGET_MB);
    const info = await inspect(a);
    expect(info.Mounts.find((m) => m.Destination === '/workspace')).toMatchObject({ Type: 'bind', Source: path.join(dir, prefix, 'mnt', a.volume) });
    const df = await run(ca, 'df -k --output=size /workspace | tail -1; ls -A /workspace | wc -l');
    const [sizeKb, entries] = df.stdout.trim().split('\n').map((s) => Number(s.trim()));
    expect(sizeKb).toBeLessThanOrEqual(BUDGET_MB * 1024);
    expect(sizeKb).toBeGreaterThan(BUDGET_MB * 1024 * 0.8);
    expect(entries).toBe(0); // no lost+found left behind
  });

  maybe('should fail a write past the budget with ENOSPC and say which budget is used up', async () => {
    const r = await run(ca, `dd if=/dev/zero of=big bs=1M count=${BUDGET_MB + 16}`);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('No space left on device');
    expect(r.stderr).toContain(`the workspace disk budget of ${BUDGET_MB} MB is used up`);
    await expect(ca.call('fs.write', { path: 'more.txt', content: 'x'.repeat(1024 * 1024) })).rejects.toThrow(`disk budget of ${BUDGET_MB} MB is used up`);
  });

  maybe('should leave another workspace unaffected, and write again once files are deleted', async () => {
    const other = await run(cb, 'dd if=/dev/zero of=ten bs=1M count=10 2>&1 && echo ok');
    expect(other.stdout).toContain('ok');
    await ca.call('fs.delete', { path: 'big' });
    await ca.call('fs.write', { path: 'after.txt', content: 'room again' });
    expect((await ca.call('fs.read', { path: 'after.txt' })).content).toBe('room again');
  });

  maybe('should keep the files when the container is re-created, and re-attach the image after a host restart', async () => {
    await docker.getContainer(a.name).remove({ force: true });
    a = await driver.ensure(spec('disk-a'), a);
    ca = await driver.connect(a);
    expect((await ca.call('fs.read', { path: 'after.txt' })).content).toBe('room again');
    // A record that was never saved: the running container is adopted with its image and budget.
    expect(await driver.ensure(spec('disk-a'))).toMatchObject({ volume: a.volume, diskMb: BUDGET_MB });
    // A host restart: the container stopped and the image no longer mounted.
    await docker.getContainer(a.name).stop({ t: 1 });
    execFileSync('umount', [path.join(dir, prefix, 'mnt', a.volume)]);
    ca = await driver.connect(a);
    expect((await ca.call('fs.read', { path: 'after.txt' })).content).toBe('room again');
  });

  maybe('should give warm pool containers the budget too, and delete the images of unclaimed ones', async () => {
    const pooled = await makeDriver(prefix, { diskDir: dir, diskMb: BUDGET_MB, poolSize: 1 });
    const store = new LoopDiskStore(path.join(dir, prefix), '1000:1000');
    let claimed: SandboxRecord;
    try {
      await pooled.fillPool();
      claimed = await pooled.ensure(spec('disk-pool'));
      expect(claimed).toMatchObject({ diskMb: BUDGET_MB, volume: expect.stringContaining('vol-pool-') });
      await pooled.fillPool();
      expect(store.list()).toHaveLength(4); // a, b, the claimed one and the new warm one
    } finally {
      await pooled.close(); // drains the pool: the warm container goes with its image
    }
    expect(store.list().sort()).toEqual([a.volume, b.volume, claimed.volume].sort());
    await driver.remove(claimed);
  });

  maybe('should delete the image and its mount when the workspace is removed', async () => {
    const img = path.join(dir, prefix, `${b.volume}.img`);
    expect(existsSync(img)).toBe(true);
    await driver.remove(b);
    expect(existsSync(img)).toBe(false);
    expect(existsSync(path.join(dir, prefix, 'mnt', b.volume))).toBe(false);
  });
});
