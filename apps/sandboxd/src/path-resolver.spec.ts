import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PathResolver } from './path-resolver';

describe(PathResolver.name, () => {
  let base: string;
  let root: string;
  let paths: PathResolver;

  beforeAll(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'h-paths-'));
    root = path.join(base, 'ws');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    writeFileSync(path.join(base, 'outside.txt'), 'secret');
    symlinkSync(base, path.join(root, 'up'));
    symlinkSync(path.join(root, 'src'), path.join(root, 'src-link'));
    symlinkSync(path.join(base, 'nowhere'), path.join(root, 'dangling-out'));
    symlinkSync('src/new.txt', path.join(root, 'dangling-in'));
    paths = new PathResolver(root);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const code = async (p: string) => paths.resolve(p).then(() => 'ok', (e) => e.data?.code);

  it('should accept relative, /workspace-absolute and real-absolute paths inside the root', async () => {
    expect((await paths.resolve('src/a.ts')).rel).toBe('src/a.ts');
    expect((await paths.resolve('/workspace/src/a.ts')).rel).toBe('src/a.ts');
    expect((await paths.resolve(path.join(paths.root, 'src'))).rel).toBe('src');
    expect((await paths.resolve('.')).rel).toBe('');
  });

  it('should refuse .., foreign absolute paths and symlinks that lead out', async () => {
    expect(await code('../outside.txt')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('src/../../outside.txt')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('/etc/passwd')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('/workspace/../etc/passwd')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('up/outside.txt')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('up')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('dangling-out')).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code('up/new-dir/file.txt')).toBe('PATH_OUTSIDE_WORKSPACE');
  });

  it('should follow symlinks that stay inside, existing or not yet', async () => {
    expect((await paths.resolve('src-link/a.ts')).rel).toBe('src/a.ts');
    expect((await paths.resolve('dangling-in')).rel).toBe('src/new.txt');
  });

  it('should let a link itself be addressed without following it', async () => {
    expect((await paths.resolve('up', { noFollowLast: true })).rel).toBe('up');
  });
});
