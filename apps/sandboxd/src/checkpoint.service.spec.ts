import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CheckpointService } from './checkpoint.service';
import { PathResolver } from './path-resolver';

describe(CheckpointService.name, () => {
  let root: string;
  let store: string;
  let service: CheckpointService;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'h-cp-ws-'));
    store = mkdtempSync(path.join(tmpdir(), 'h-cp-store-'));
    service = new CheckpointService(new PathResolver(root), path.join(store, 'checkpoints.git'));
  });
  afterEach(() => {
    service.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  });

  it('should put changed, deleted and created files back as they were and leave the user .git alone', async () => {
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/a.ts'), 'one\n');
    writeFileSync(path.join(root, 'gone.txt'), 'keep me\n');
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, '.git/HEAD'), 'ref: refs/heads/main\n');
    const cp = await service.create({});
    expect(cp.id).toMatch(/^[0-9a-f]{40}$/);
    expect(cp.files).toBe(2);

    writeFileSync(path.join(root, 'src/a.ts'), 'two\n');
    rmSync(path.join(root, 'gone.txt'));
    writeFileSync(path.join(root, 'new.txt'), 'created later\n');
    writeFileSync(path.join(root, '.git/HEAD'), 'ref: refs/heads/other\n');

    const restored = await service.restore({ id: cp.id });
    expect(restored).toEqual({ restored: 2, removed: 1 });
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('one\n');
    expect(readFileSync(path.join(root, 'gone.txt'), 'utf8')).toBe('keep me\n');
    expect(existsSync(path.join(root, 'new.txt'))).toBe(false);
    expect(readFileSync(path.join(root, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/other\n');
  });

  it('should leave files over the size cap out of the checkpoint', async () => {
    writeFileSync(path.join(root, 'small.txt'), 'x');
    writeFileSync(path.join(root, 'big.bin'), Buffer.alloc(4096, 1));
    const cp = await service.create({ maxFileBytes: 1024 });
    expect(cp.skipped).toEqual(['big.bin']);
    expect(cp.files).toBe(1);
  });

  it('should leave out large files whose names hold spaces, globs and gitignore characters, and keep their small neighbours', async () => {
    const names = ['my big [1].bin', '#notes*?.bin', '!bang file.bin', "quote's \\ back.bin"];
    mkdirSync(path.join(root, 'data dir'));
    for (const n of names) writeFileSync(path.join(root, 'data dir', n), Buffer.alloc(2048, 7));
    writeFileSync(path.join(root, 'data dir', 'my big [1].txt'), 'small');
    const cp = await service.create({ maxFileBytes: 1024 });
    expect([...cp.skipped].sort()).toEqual(names.map((n) => `data dir/${n}`).sort());
    expect(cp.files).toBe(1);
    // The restore brings the small file back and leaves the large ones alone.
    writeFileSync(path.join(root, 'data dir', 'my big [1].txt'), 'changed');
    await service.restore({ id: cp.id });
    expect(readFileSync(path.join(root, 'data dir', 'my big [1].txt'), 'utf8')).toBe('small');
    for (const n of names) expect(existsSync(path.join(root, 'data dir', n))).toBe(true);
  });

  it('should take the next checkpoint after its shell was killed', async () => {
    writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const first = await service.create({});
    // Anything in the sandbox running as its user can kill the shell (pkill -u, an OOM kill).
    execFileSync('pkill', ['-KILL', '-P', String(process.pid), '-f', 'h-large'], { stdio: 'ignore' });
    writeFileSync(path.join(root, 'a.txt'), 'two\n');
    const second = await waitForCheckpoint(service);
    expect(second.id).not.toBe(first.id);
    await service.restore({ id: first.id });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it("should fail a checkpoint with git's own message when git cannot read the store", async () => {
    writeFileSync(path.join(root, 'a.txt'), 'one\n');
    await service.create({});
    const index = path.join(store, 'checkpoints.git', 'checkpoint-index');
    writeFileSync(index, 'not an index');
    await expect(service.create({})).rejects.toThrow(/^git: .*index file/i);
    // The shell survives a failed step: the next checkpoint works.
    rmSync(index);
    expect((await service.create({})).files).toBe(1);
  });

  it('should answer NOT_FOUND for a checkpoint this sandbox does not have', async () => {
    await service.create({});
    await expect(service.restore({ id: 'a'.repeat(40) })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });
});

/** The first checkpoint after a kill may meet the dying shell (its pipe closing): one more try. */
async function waitForCheckpoint(service: CheckpointService): Promise<{ id: string }> {
  try {
    return await service.create({});
  } catch (err) {
    if (!/checkpoint shell exited/.test((err as Error).message)) throw err;
    return service.create({});
  }
}

describe(`${CheckpointService.name} over several runs`, () => {
  it('should restore an older checkpoint after a newer one was taken', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'h-cp-ws-'));
    const store = mkdtempSync(path.join(tmpdir(), 'h-cp-store-'));
    try {
      const service = new CheckpointService(new PathResolver(root), path.join(store, 'checkpoints.git'));
      writeFileSync(path.join(root, 'story.txt'), 'one\n');
      const first = await service.create({});
      writeFileSync(path.join(root, 'story.txt'), 'two\n');
      writeFileSync(path.join(root, 'extra.txt'), 'x\n');
      const second = await service.create({});
      expect(second.id).not.toBe(first.id);
      rmSync(path.join(root, 'extra.txt'));
      await service.restore({ id: first.id });
      expect(readFileSync(path.join(root, 'story.txt'), 'utf8')).toBe('one\n');
      expect(existsSync(path.join(root, 'extra.txt'))).toBe(false);
      await service.restore({ id: second.id });
      expect(readFileSync(path.join(root, 'extra.txt'), 'utf8')).toBe('x\n');
      service.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(store, { recursive: true, force: true });
    }
  });
});
