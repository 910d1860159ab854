import { applyExactEdit, commandEnv, compileGlob, InvalidGlobError, isGlob, isInSkippedDirectory, matchesGlob, nameMatcher } from './index';

describe(compileGlob.name, () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'dir/a.ts', false],
    ['src/**/*.spec.ts', 'src/a.spec.ts', true],
    ['src/**/*.spec.ts', 'src/x/y/a.spec.ts', true],
    ['src/**/*.spec.ts', 'lib/a.spec.ts', false],
    ['{a,b}.json', 'b.json', true],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['file?.txt', 'file1.txt', true],
    ['[ab]*.md', 'abc.md', true],
    ['[!ab]*.md', 'abc.md', false],
    ['a.b', 'axb', false],
    ['{a.txt', '{a.txt', true],
    ['*.TS', 'a.ts', false],
  ])('should match %s against %s -> %s', (glob, path, expected) => {
    expect(compileGlob(glob).test(path)).toBe(expected);
  });

  it('should fold case only when asked, and match base names unless the glob has a slash', () => {
    expect(compileGlob('*.TS', true).test('a.ts')).toBe(true);
    expect(matchesGlob('src/deep/a.ts', '*.ts')).toBe(true);
    expect(matchesGlob('src/deep/a.ts', 'src/*.ts')).toBe(false);
    expect(isGlob('*.ts')).toBe(true);
    expect(isGlob('service')).toBe(false);
  });

  it('should refuse a glob too large to compile instead of running it', () => {
    expect(() => compileGlob(`${'?'.repeat(1500)}*`)).toThrow(InvalidGlobError);
  });
});

describe(nameMatcher.name, () => {
  it('should match names case-insensitively by substring or glob, and paths for patterns with a slash', () => {
    const entry = { name: 'App.Service.ts', path: 'Src/App.Service.ts' };
    expect(['service', '*.TS', 'src/app*', 'SRC/**/*.ts'].map((p) => nameMatcher(p)(entry))).toEqual([true, true, true, true]);
    expect(['util', '*.js', 'lib/*'].map((p) => nameMatcher(p)(entry))).toEqual([false, false, false]);
  });
});

describe(isInSkippedDirectory.name, () => {
  it('should skip .git and node_modules at any depth, and nothing that only starts like them', () => {
    expect(['node_modules', 'a/node_modules/x.js', '.git/HEAD'].map(isInSkippedDirectory)).toEqual([true, true, true]);
    expect(['node_modules_old/a', '.github/workflows/ci.yml', 'src/git.ts'].map(isInSkippedDirectory)).toEqual([false, false, false]);
  });
});

describe(commandEnv.name, () => {
  it('should pass only allowlisted host variables, then the caller’s valid ones', () => {
    const env = commandEnv({ CI: '1', 'BAD NAME': 'x' }, { PATH: '/bin', HOME: '/home/u', DEEPSEEK_API_KEY: 'sk-secret', TEMP: '/t' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/u', TEMP: '/t', LANG: 'C.UTF-8', CI: '1' });
  });
});

describe(applyExactEdit.name, () => {
  it('should replace one exact occurrence, or all when asked, and keep "$&" literal', () => {
    expect(applyExactEdit('a\nb = 1\nc', 'b = 1', 'b = $&2')).toEqual({ ok: true, text: 'a\nb = $&2\nc', replacements: 1, line: 2 });
    expect(applyExactEdit('x x x', 'x', 'y', true)).toEqual({ ok: true, text: 'y y y', replacements: 3, line: 1 });
  });

  it('should say why an edit cannot apply', () => {
    expect(applyExactEdit('x x', 'x', 'y')).toEqual({ ok: false, reason: 'ambiguous', count: 2 });
    expect(applyExactEdit('  if (a) {\n    go();\n  }', 'if (a) {\n go();', 'z')).toEqual({ ok: false, reason: 'not_found', loose: true });
    expect(applyExactEdit('abc', 'zzz', 'y')).toEqual({ ok: false, reason: 'not_found', loose: false });
    expect(applyExactEdit('abc', '', 'y')).toEqual({ ok: false, reason: 'empty' });
    expect(applyExactEdit('abc', 'b', 'b')).toEqual({ ok: false, reason: 'unchanged' });
  });
});
