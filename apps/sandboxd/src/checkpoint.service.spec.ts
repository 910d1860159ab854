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

  it('should answer NOT_FOUND for a checkpoint this sandbox does not have', async () => {
    await service.create({});
    await expect(service.restore({ id: 'a'.repeat(40) })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });
});
