import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentChangeSide } from '@h/contracts';
import { runDiff, type DiffableChange } from './run-diff';

const none: AgentChangeSide = { exists: false, content: null, bytes: 0, binary: false, directory: false, tooLarge: false };
const text = (content: string): AgentChangeSide => ({ exists: true, content, bytes: Buffer.byteLength(content), binary: false, directory: false, tooLarge: false });
const binary: AgentChangeSide = { exists: true, content: null, bytes: 10, binary: true, directory: false, tooLarge: false };

function change(kind: DiffableChange['kind'], path: string, before: AgentChangeSide, after: AgentChangeSide, extra: Partial<DiffableChange> = {}): DiffableChange {
  return { kind, path, fromPath: null, status: 'applied', before, after, ...extra };
}

/** Applies the diff with git to a folder holding `files`; returns the folder's files afterwards. */
function gitApply(files: Record<string, string>, diff: string, paths: string[]): Record<string, string | null> {
  const dir = mkdtempSync(join(tmpdir(), 'run-diff-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    execFileSync('git', ['apply', '-'], { cwd: dir, input: diff, stdio: ['pipe', 'pipe', 'pipe'] });
    return Object.fromEntries(paths.map((p) => [p, existsSync(join(dir, p)) ? readFileSync(join(dir, p), 'utf8') : null]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('runDiff', () => {
  it('should give a diff git applies for an edit, a new file, a deleted file and a rename', () => {
    const changes = [
      change('modify', 'src/math.js', text('function add(a, b) {\n  return a - b;\n}\n'), text('function add(a, b) {\n  return a + b;\n}\n')),
      change('create', 'notes/new.txt', none, text('hello\n')),
      change('delete', 'old.txt', text('bye\n'), none),
      change('rename', 'b.txt', text('same\n'), text('same\n'), { fromPath: 'a.txt' }),
    ];
    const diff = runDiff(changes);
    expect(diff).toContain('diff --git a/src/math.js b/src/math.js\n--- a/src/math.js\n+++ b/src/math.js\n');
    expect(diff).toContain('-  return a - b;\n+  return a + b;\n');
    expect(diff).toContain('new file mode 100644\n--- /dev/null\n+++ b/notes/new.txt\n@@ -0,0 +1 @@\n+hello\n');
    expect(diff).toContain('rename from a.txt\nrename to b.txt\n');
    const after = gitApply({ 'src/math.js': 'function add(a, b) {\n  return a - b;\n}\n', 'old.txt': 'bye\n', 'a.txt': 'same\n' }, diff, ['src/math.js', 'notes/new.txt', 'old.txt', 'a.txt', 'b.txt']);
    expect(after).toEqual({ 'src/math.js': 'function add(a, b) {\n  return a + b;\n}\n', 'notes/new.txt': 'hello\n', 'old.txt': null, 'a.txt': null, 'b.txt': 'same\n' });
  });

  it('should fold several steps on one file into one section from its first before to its last after', () => {
    const diff = runDiff([
      change('create', 'a.txt', none, text('one\n')),
      change('modify', 'a.txt', text('one\n'), text('one\ntwo\n')),
      change('rename', 'b.txt', text('one\ntwo\n'), text('one\ntwo\n'), { fromPath: 'a.txt' }),
      change('modify', 'b.txt', text('one\ntwo\n'), text('one\ntwo\nthree\n')),
    ]);
    expect(diff.match(/^diff --git/gm)).toHaveLength(1);
    expect(gitApply({}, diff, ['a.txt', 'b.txt'])).toEqual({ 'a.txt': null, 'b.txt': 'one\ntwo\nthree\n' });
  });

  it('should leave out rejected changes, a file put back as it was, and directories', () => {
    expect(
      runDiff([
        change('modify', 'x.txt', text('a\n'), text('b\n'), { status: 'rejected' }),
        change('modify', 'y.txt', text('a\n'), text('b\n')),
        change('modify', 'y.txt', text('b\n'), text('a\n')),
        change('create', 'made', none, { ...none, exists: true, directory: true }),
      ]),
    ).toBe('');
  });

  it('should say a binary file differs without inventing its content, and mark a missing final newline', () => {
    expect(runDiff([change('modify', 'logo.png', binary, binary)])).toBe('diff --git a/logo.png b/logo.png\nBinary files a/logo.png and b/logo.png differ\n');
    const diff = runDiff([change('modify', 'n.txt', text('x\ny'), text('x\nz\n'))]);
    expect(diff).toContain('-y\n\\ No newline at end of file\n+z\n');
    expect(gitApply({ 'n.txt': 'x\ny' }, diff, ['n.txt'])).toEqual({ 'n.txt': 'x\nz\n' });
  });
});
