import { fuzzyFilter, fuzzyScore } from './fuzzy';

describe('fuzzy', () => {
  it('should match characters in order and refuse others', () => {
    expect(fuzzyScore('apts', 'src/app.ts')).not.toBeNull();
    expect(fuzzyScore('zz', 'src/app.ts')).toBeNull();
    expect(fuzzyScore('tsapp', 'src/app.ts')).toBeNull();
  });

  it('should rank a file-name match above a match spread over folders', () => {
    const ranked = fuzzyFilter('main', ['src/m/a/i/n.ts', 'lib/main.ts', 'docs/domain-notes.md'], (s) => s);
    expect(ranked[0].item).toBe('lib/main.ts');
  });

  it('should give every item for an empty query, up to the limit', () => {
    expect(fuzzyFilter('', ['a', 'b', 'c'], (s) => s, 2)).toHaveLength(2);
  });

  it('should report matched positions for highlighting', () => {
    expect(fuzzyScore('rd', 'README.md')?.positions).toEqual([0, 3]);
  });
});
