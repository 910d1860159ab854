import { WorkspaceError, type Workspace } from '@h/contracts';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof WorkspaceError ? e.code : `not a WorkspaceError: ${String(e)}`;
  }
  return 'no error';
}

/**
 * What the Workspace contract (libs/contracts/src/workspace.ts) promises, as checks any
 * implementation must pass. `get` returns a fresh, empty workspace for the suite.
 */
export function describeWorkspaceBehaviour(name: string, get: () => Workspace): void {
  describe(`${name} keeps the Workspace contract`, () => {
    it('should write text with parent directories and read it back, relative or absolute', async () => {
      const ws = get();
      await ws.writeFile('src/deep/a.ts', 'export const a = 1;\n');
      expect(await ws.readTextFile('src/deep/a.ts')).toBe('export const a = 1;\n');
      expect(await ws.readTextFile(`${ws.root}/src/deep/a.ts`)).toBe('export const a = 1;\n');
    });

    it('should round-trip binary content byte for byte', async () => {
      const ws = get();
      const bytes = new Uint8Array(256).map((_, i) => i);
      await ws.writeFile('bin/all-bytes.bin', bytes);
      expect(Buffer.from(await ws.readFile('bin/all-bytes.bin')).equals(Buffer.from(bytes))).toBe(true);
    });

    it('should stat files and directories and return null for missing paths', async () => {
      const ws = get();
      await ws.writeFile('stat/f.txt', 'hello');
      expect(await ws.stat('stat/f.txt')).toMatchObject({ path: 'stat/f.txt', type: 'file', size: 5 });
      expect(await ws.stat('stat')).toMatchObject({ path: 'stat', type: 'directory' });
      expect(await ws.stat('stat/missing.txt')).toBeNull();
      await ws.exec('ln -s f.txt stat/link.txt');
      expect(await ws.stat('stat/link.txt')).toMatchObject({ path: 'stat/link.txt', type: 'symlink' });
    });

    it('should list a directory flat or recursively and report truncation', async () => {
      const ws = get();
      await ws.writeFile('ls/a.txt', 'a');
      await ws.writeFile('ls/sub/b.txt', 'b');
      const flat = await ws.list('ls');
      expect(flat.entries.map((e) => [e.path, e.type])).toEqual([
        ['ls/a.txt', 'file'],
        ['ls/sub', 'directory'],
      ]);
      const deep = await ws.list('ls', { recursive: true });
      expect(deep.entries.map((e) => e.path)).toEqual(['ls/a.txt', 'ls/sub', 'ls/sub/b.txt']);
      const cut = await ws.list('ls', { recursive: true, maxEntries: 2 });
      expect(cut).toMatchObject({ truncated: true });
      expect(cut.entries).toHaveLength(2);
    });

    it('should make directories, rename and remove', async () => {
      const ws = get();
      await ws.mkdir('mv/dir/nested');
      await ws.writeFile('mv/one.txt', '1');
      await ws.rename('mv/one.txt', 'mv/dir/two.txt');
      expect(await ws.stat('mv/one.txt')).toBeNull();
      expect(await ws.readTextFile('mv/dir/two.txt')).toBe('1');
      expect(await codeOf(ws.remove('mv/dir'))).toBe('IS_DIRECTORY');
      await ws.writeFile('mv/three.txt', '3');
      expect(await codeOf(ws.rename('mv/three.txt', 'mv/dir/two.txt'))).toBe('ALREADY_EXISTS');
      expect(await codeOf(ws.remove('mv/missing.txt'))).toBe('NOT_FOUND');
      await ws.remove('mv/dir/two.txt');
      await ws.remove('mv', { recursive: true });
      expect(await ws.stat('mv')).toBeNull();
    });

    it('should find files by glob and by substring', async () => {
      const ws = get();
      await ws.writeFile('find/app.service.ts', '');
      await ws.writeFile('find/lib/util.ts', '');
      await ws.writeFile('find/readme.md', '');
      expect((await ws.findFiles('*.ts', { path: 'find' })).sort()).toEqual(['find/app.service.ts', 'find/lib/util.ts']);
      expect(await ws.findFiles('SERVICE', { path: 'find' })).toEqual(['find/app.service.ts']);
      expect(await ws.findFiles('find/lib/*.ts')).toEqual(['find/lib/util.ts']);
      // search_files is case-insensitive (seed) for globs too, whichever driver runs it.
      expect((await ws.findFiles('*.TS', { path: 'find' })).sort()).toEqual(['find/app.service.ts', 'find/lib/util.ts']);
      expect(await ws.findFiles('Find/LIB/*.ts')).toEqual(['find/lib/util.ts']);
    });

    it('should grep with line and column, case folding, literal patterns, globs and a result cap', async () => {
      const ws = get();
      await ws.writeFile('grep/a.ts', 'const x = 1;\nfunction Hello() {}\n');
      await ws.writeFile('grep/b.md', 'hello (world)\n');
      const r = await ws.grep('Hello', { path: 'grep' });
      expect(r.matches).toEqual([{ path: 'grep/a.ts', line: 2, column: 10, text: 'function Hello() {}' }]);
      // Ignore files decide nothing on any driver (ripgrep honours .ignore always, and .gitignore
      // inside a git repository, unless told not to).
      await ws.writeFile('grep/.ignore', 'ignored.txt\n');
      await ws.writeFile('grep/ignored.txt', 'Hello from an ignored file\n');
      expect((await ws.grep('Hello from', { path: 'grep' })).matches.map((m) => m.path)).toEqual(['grep/ignored.txt']);
      await ws.remove('grep/ignored.txt');
      await ws.remove('grep/.ignore');
      // A grep glob is case-sensitive on every driver (ripgrep's -g, grep's --include, LocalWorkspace).
      expect((await ws.grep('Hello', { path: 'grep', glob: '*.TS' })).matches).toEqual([]);
      expect((await ws.grep('Hello', { path: 'grep', glob: '*.ts' })).matches).toHaveLength(1);
      const folded = await ws.grep('hello', { path: 'grep', ignoreCase: true });
      expect(folded.matches.map((m) => m.path).sort()).toEqual(['grep/a.ts', 'grep/b.md']);
      expect((await ws.grep('(world)', { path: 'grep', fixedString: true })).matches).toHaveLength(1);
      expect((await ws.grep('hello', { path: 'grep', ignoreCase: true, glob: '*.md' })).matches.map((m) => m.path)).toEqual(['grep/b.md']);
      const capped = await ws.grep('.', { path: 'grep', maxResults: 1 });
      expect(capped).toMatchObject({ truncated: true });
      expect(capped.matches).toHaveLength(1);
    });

    it('should run commands with cwd, extra env, stdin, exit code and stderr, never the host env', async () => {
      const ws = get();
      await ws.mkdir('run/here');
      process.env.H_LEAK_CHECK = 'host-secret';
      const r = await ws.exec('pwd; echo "$GREETING"; cat; echo "${H_LEAK_CHECK:-clean}"; echo oops >&2; exit 3', {
        cwd: 'run/here',
        env: { GREETING: 'hi' },
        stdin: 'from-stdin\n',
      });
      delete process.env.H_LEAK_CHECK;
      expect(r.exitCode).toBe(3);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0].endsWith('/run/here')).toBe(true);
      expect(lines.slice(1)).toEqual(['hi', 'from-stdin', 'clean']);
      expect(r.stderr).toBe('oops\n');
      expect(r).toMatchObject({ timedOut: false, cancelled: false, truncated: false });
    });

    it('should stop a command at its timeout and cap its output', async () => {
      const ws = get();
      const slow = await ws.exec('sleep 30', { timeoutMs: 300 });
      expect(slow).toMatchObject({ timedOut: true, exitCode: null });
      const loud = await ws.exec('head -c 100000 /dev/zero | tr "\\0" x', { maxOutputBytes: 1000 });
      expect(loud.truncated).toBe(true);
      expect(loud.stdout.length).toBe(1000);
    });

    it('should kill the whole process group when the caller cancels', async () => {
      const ws = get();
      const ac = new AbortController();
      const running = ws.exec('sleep 31.25 & sleep 31.25; echo never', { signal: ac.signal });
      await new Promise((r) => setTimeout(r, 300));
      ac.abort();
      const r = await running;
      expect(r).toMatchObject({ cancelled: true });
      expect(r.stdout).not.toContain('never');
      const left = await ws.exec('pgrep -f "sleep 31[.]25" || echo none');
      expect(left.stdout.trim()).toBe('none');
    });

    it('should refuse paths outside the workspace: .., absolute, and symlinks pointing out', async () => {
      const ws = get();
      expect(await codeOf(ws.readTextFile('../etc/passwd'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.readTextFile('/etc/passwd'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.readTextFile(`${ws.root}/../etc/passwd`))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.writeFile('../escape.txt', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
      const link = await ws.exec('ln -s /etc out-link && ln -s /etc/passwd pw-link && echo ok');
      expect(link.stdout.trim()).toBe('ok');
      expect(await codeOf(ws.readTextFile('out-link/passwd'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.readTextFile('pw-link'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.writeFile('out-link/evil', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.list('out-link'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.exec('pwd', { cwd: 'out-link' }))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.grep('root', { path: 'out-link' }))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('should report missing files, directories read as files and files listed as directories', async () => {
      const ws = get();
      await ws.writeFile('err/f.txt', 'x');
      expect(await codeOf(ws.readTextFile('err/missing.txt'))).toBe('NOT_FOUND');
      expect(await codeOf(ws.readTextFile('err'))).toBe('IS_DIRECTORY');
      expect(await codeOf(ws.list('err/f.txt'))).toBe('NOT_DIRECTORY');
    });
  });
}
