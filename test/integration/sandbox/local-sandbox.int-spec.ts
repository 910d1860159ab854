import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalSandboxDriver, LocalSandboxRefusedError, SandboxWorkspace, type SandboxRecord } from '@h/sandbox';
import { describeWorkspaceBehaviour } from './workspace-behaviour';

const base = mkdtempSync(path.join(os.tmpdir(), 'h-local-sandbox-'));
let driver: LocalSandboxDriver;
let record: SandboxRecord;

beforeAll(async () => {
  driver = new LocalSandboxDriver({ baseDir: base, multiUser: false });
  record = await driver.ensure({ workspaceId: 'local-ws', teamId: 'team-test' });
}, 120_000);

afterAll(async () => {
  await driver?.close();
  rmSync(base, { recursive: true, force: true });
});

describe(LocalSandboxDriver.name, () => {
  it('should refuse to run in multi-user mode unless explicitly allowed', () => {
    expect(() => new LocalSandboxDriver({ baseDir: base, multiUser: true })).toThrow(LocalSandboxRefusedError);
    expect(new LocalSandboxDriver({ baseDir: base, multiUser: true, allowUnsafe: true }).unsafe).toBe(true);
  });

  it('should label itself unsafe in its records and status', async () => {
    expect(record).toMatchObject({ driver: 'local', unsafe: true });
    expect(await driver.status(record)).toEqual({ state: 'running', driver: 'local', unsafe: true });
  });

  it('should let a second process join the running daemon instead of starting a rival', async () => {
    const other = new LocalSandboxDriver({ baseDir: base, multiUser: false });
    try {
      const mine = await driver.connect(record);
      await new SandboxWorkspace(async () => mine).writeFile('shared.txt', 'one daemon');
      const theirs = await other.connect(await other.ensure({ workspaceId: 'local-ws', teamId: 'team-test' }));
      expect((await theirs.call('health', {})).pid).toBe((await mine.call('health', {})).pid);
      expect((await theirs.call('fs.read', { path: 'shared.txt' })).content).toBe('one daemon');
    } finally {
      await other.close();
    }
  });

  it('should keep checkpoints beside the workspace directory, across a stop, and remove them with it', async () => {
    const r = await driver.ensure({ workspaceId: 'local-ckpt', teamId: 'team-test' });
    const ws = new SandboxWorkspace(() => driver.connect(r));
    await ws.writeFile('a.txt', 'before');
    const { id } = await (await driver.connect(r)).call('checkpoint.create', {});
    await ws.writeFile('a.txt', 'after');
    await driver.stop(r);
    expect(await (await driver.connect(r)).call('checkpoint.restore', { id })).toMatchObject({ removed: 0 });
    expect(await ws.readTextFile('a.txt')).toBe('before');
    expect((await ws.exec('ls -A')).stdout).toBe('a.txt\n');
    expect(existsSync(`${r.volume}.h-state`)).toBe(true);
    await driver.remove(r);
    expect(existsSync(`${r.volume}.h-state`)).toBe(false);
  });

  it('should come back after a stop on next use, with the directory intact', async () => {
    const ws = new SandboxWorkspace(() => driver.connect(record));
    await ws.writeFile('persist.txt', 'kept');
    await driver.stop(record);
    expect((await driver.status(record)).state).toBe('stopped');
    expect(await ws.readTextFile('persist.txt')).toBe('kept');
  });
});

describeWorkspaceBehaviour('SandboxWorkspace (local driver)', () => new SandboxWorkspace(() => driver.connect(record)));
