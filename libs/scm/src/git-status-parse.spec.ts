import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGitStatus } from './git-status-parse';

// Against git's real output (the host's git), so the parser follows the format, not a guess of it.
describe(parseGitStatus.name, () => {
  let dir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8' });
  const status = () => git('status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'h-scm-'));
    git('init', '-q');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should report an unborn branch with untracked files, spaces in names too', () => {
    writeFileSync(join(dir, 'a file.txt'), 'x');
    const s = parseGitStatus(status(), false);
    expect(s).toMatchObject({ initialized: true, branch: 'main', head: null, upstream: null, ahead: 0, behind: 0, truncated: false });
    expect(s.untracked).toEqual([{ path: 'a file.txt', kind: 'untracked' }]);
  });

  it('should split staged and unstaged sides and keep a rename\'s original path', () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    writeFileSync(join(dir, 'old name.txt'), 'same content for the rename\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'first');
    writeFileSync(join(dir, 'a.txt'), 'a2\n');
    git('add', 'a.txt');
    writeFileSync(join(dir, 'a.txt'), 'a3\n');
    writeFileSync(join(dir, 'b.txt'), 'b2\n');
    git('mv', 'old name.txt', 'new name.txt');
    writeFileSync(join(dir, 'c.txt'), 'c\n');
    const s = parseGitStatus(status(), false);
    expect(s.head).toMatch(/^[0-9a-f]{40}$/);
    expect(s.staged).toEqual([
      { path: 'a.txt', kind: 'modified' },
      { path: 'new name.txt', kind: 'renamed', originalPath: 'old name.txt' },
    ]);
    expect(s.unstaged).toEqual([
      { path: 'a.txt', kind: 'modified' },
      { path: 'b.txt', kind: 'modified' },
    ]);
    expect(s.untracked).toEqual([{ path: 'c.txt', kind: 'untracked' }]);
  });

  it('should list unmerged paths as conflicted and report ahead/behind of the upstream', () => {
    writeFileSync(join(dir, 'f.txt'), 'base\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    git('branch', 'other');
    writeFileSync(join(dir, 'f.txt'), 'main side\n');
    git('commit', '-q', '-am', 'main');
    git('switch', '-q', 'other');
    writeFileSync(join(dir, 'f.txt'), 'other side\n');
    git('commit', '-q', '-am', 'other');
    git('branch', '--set-upstream-to=main');
    try {
      git('merge', '-q', 'main');
    } catch {
      // The conflict is the point.
    }
    const s = parseGitStatus(status(), false);
    expect(s).toMatchObject({ branch: 'other', upstream: 'main', ahead: 1, behind: 1 });
    expect(s.conflicted).toEqual([{ path: 'f.txt', kind: 'conflicted' }]);
    expect(s.staged).toEqual([]);
  });

  it('should stop listing at the file cap and say so', () => {
    const out = '# branch.oid (initial)\0# branch.head main\0' + ['a', 'b', 'c'].map((n) => `? ${n}.txt\0`).join('');
    const s = parseGitStatus(out, false, 2);
    expect(s.branch).toBe('main');
    expect(s.untracked.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(s.truncated).toBe(true);
  });

  it('should drop a record cut by the output cap', () => {
    const s = parseGitStatus('# branch.oid (initial)\0# branch.head main\0? one.txt\0? tw', true);
    expect(s.untracked).toEqual([{ path: 'one.txt', kind: 'untracked' }]);
    expect(s.truncated).toBe(true);
  });
});
