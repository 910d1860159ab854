import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostEnv } from '@h/config';
import { WorkspaceError } from '@h/contracts';
import { LocalWorkspace } from './local-workspace';
import { processAlive as pidAlive, waitForCondition as waitFor } from './testing/process-helpers';

describe(LocalWorkspace.name, () => {
  let dir: string;
  let outside: string;
  let ws: LocalWorkspace;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'h-ws-'));
    outside = mkdtempSync(join(tmpdir(), 'h-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    ws = new LocalWorkspace(dir);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const code = async (p: Promise<unknown>) => ((await p.catch((e) => e)) as WorkspaceError).code;

  it('should read and write files relative to the root and under the display root', async () => {
    await ws.writeFile('src/a.txt', 'hello');
    expect(await ws.readTextFile('/workspace/src/a.txt')).toBe('hello');
    expect(readFileSync(join(dir, 'src/a.txt'), 'utf8')).toBe('hello');
    expect(await ws.stat('src')).toMatchObject({ path: 'src', type: 'directory' });
    expect(await ws.stat('missing')).toBeNull();
  });

  it('should refuse paths that leave the root by .., absolute paths or symlinks', async () => {
    symlinkSync(outside, join(dir, 'link-dir'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'link-file'));
    symlinkSync(join(outside, 'nope.txt'), join(dir, 'dangling'));
    expect(await code(ws.readTextFile('../x'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code(ws.readTextFile('/etc/passwd'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code(ws.readTextFile('link-file'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code(ws.readTextFile('link-dir/secret.txt'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code(ws.writeFile('link-dir/new.txt', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code(ws.writeFile('dangling', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await code(ws.exec('pwd', { cwd: '../' }))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('should report typed errors for missing files, directories and existing targets', async () => {
    mkdirSync(join(dir, 'd'));
    writeFileSync(join(dir, 'f'), '1');
    expect(await code(ws.readFile('nope'))).toBe('NOT_FOUND');
    expect(await code(ws.readFile('d'))).toBe('IS_DIRECTORY');
    expect(await code(ws.list('f'))).toBe('NOT_DIRECTORY');
    expect(await code(ws.rename('f', 'd'))).toBe('ALREADY_EXISTS');
    expect(await code(ws.remove('d'))).toBe('IS_DIRECTORY');
    expect(await code(ws.remove(''))).toBe('IO_ERROR');
  });

  it('should list, find and grep without descending into .git or node_modules', async () => {
    await ws.writeFile('src/a.ts', 'export const alpha = 1;\nconst beta = 2;\n');
    await ws.writeFile('src/b.js', 'alpha();\n');
    await ws.writeFile('node_modules/x/index.js', 'alpha');
    await ws.writeFile('.git/config', 'alpha');
    const listed = (await ws.list('', { recursive: true })).entries.map((e) => e.path);
    expect(listed).toEqual(['.git', 'node_modules', 'src', 'src/a.ts', 'src/b.js']);
    expect(await ws.findFiles('*.ts')).toEqual(['src/a.ts']);
    expect(await ws.findFiles('B.J')).toEqual(['src/b.js']);
    const grep = await ws.grep('alpha', { glob: '*.ts' });
    expect(grep.matches).toEqual([{ path: 'src/a.ts', line: 1, column: 14, text: 'export const alpha = 1;' }]);
    expect((await ws.grep('ALPHA', { ignoreCase: true })).matches.map((m) => m.path)).toEqual(['src/a.ts', 'src/b.js']);
    expect((await ws.list('', { recursive: true, maxEntries: 2 })).truncated).toBe(true);
  });

  it('should run commands in the root with a sanitized environment', async () => {
    // A secret in the host environment (replaced for this test only) must not reach the command.
    const replaced = jest.replaceProperty(process, 'env', { ...hostEnv(), H_TEST_API_KEY: 'sk-should-not-leak' });
    try {
      const res = await ws.exec('pwd; echo "key=$H_TEST_API_KEY"; echo err >&2; exit 3', { env: { EXTRA: '1' } });
      expect(res.exitCode).toBe(3);
      expect(res.stdout).toBe(`${ws.realRoot}\nkey=\n`);
      expect(res.stderr).toBe('err\n');
      const env = await ws.exec('env');
      expect(env.stdout).not.toContain('sk-should-not-leak');
      expect(env.stdout.split('\n').filter(Boolean).map((l) => l.split('=')[0]).sort()).toEqual(
        expect.arrayContaining(['PATH']),
      );
    } finally {
      replaced.restore();
    }
  });

  it('should cap output and mark it truncated', async () => {
    const res = await ws.exec('head -c 100000 /dev/zero | tr "\\0" a', { maxOutputBytes: 1000 });
    expect(res.stdout.length).toBe(1000);
    expect(res.truncated).toBe(true);
  });

  it('should kill the whole process group on timeout', async () => {
    const res = await ws.exec('sleep 30 & echo $!; wait', { timeoutMs: 300 });
    expect(res.timedOut).toBe(true);
    const pid = Number(res.stdout.trim());
    await waitFor(() => !pidAlive(pid));
  });

  it('should stop a running command when aborted and leave no process behind', async () => {
    const controller = new AbortController();
    const pidFile = join(dir, 'pid');
    const running = ws.exec(`sleep 30 & echo $! > ${pidFile}; wait`, { signal: controller.signal });
    await waitFor(() => {
      try {
        return readFileSync(pidFile, 'utf8').trim().length > 0;
      } catch {
        return false;
      }
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    controller.abort();
    const res = await running;
    expect(res.cancelled).toBe(true);
    await waitFor(() => !pidAlive(pid));
  });
});
