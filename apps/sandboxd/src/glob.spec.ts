import { globToRegExp, hasGlobChars } from './glob';

describe(globToRegExp.name, () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'dir/a.ts', false],
    ['src/**/*.spec.ts', 'src/a.spec.ts', true],
    ['src/**/*.spec.ts', 'src/x/y/a.spec.ts', true],
    ['src/**/*.spec.ts', 'lib/a.spec.ts', false],
    ['{a,b}.json', 'b.json', true],
    ['file?.txt', 'file1.txt', true],
    ['[ab]*.md', 'abc.md', true],
    ['[!ab]*.md', 'abc.md', false],
    ['a.b', 'axb', false],
  ])('should match %s against %s -> %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it('should tell globs from plain substrings', () => {
    expect(hasGlobChars('*.ts')).toBe(true);
    expect(hasGlobChars('service')).toBe(false);
  });
});
