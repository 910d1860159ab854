import type { FileEntry } from '@h/contracts';
import { dirsToReload, dropExpanded, dropTarget, moveExpanded, nameProblem, pruneListings, sortEntries, visibleRows, type Listings } from './file-tree-state';

const file = (path: string): FileEntry => ({ path, name: path.slice(path.lastIndexOf('/') + 1), type: 'file', size: 1 });
const dir = (path: string): FileEntry => ({ path, name: path.slice(path.lastIndexOf('/') + 1), type: 'directory', size: 0 });
const listing = (entries: FileEntry[]) => ({ entries, loading: false, error: null, truncated: false });

describe('file-tree-state', () => {
  it('should sort folders before files and names naturally', () => {
    const sorted = sortEntries([file('b.ts'), dir('src'), file('a10.ts'), file('a2.ts'), dir('Docs')]);
    expect(sorted.map((e) => e.name)).toEqual(['Docs', 'src', 'a2.ts', 'a10.ts', 'b.ts']);
  });

  it('should show the entries of expanded, loaded folders only, depth first', () => {
    const listings: Listings = { '': listing([dir('src'), dir('test'), file('README.md')]), src: listing([file('src/a.ts')]), test: listing([file('test/t.ts')]) };
    const rows = visibleRows(listings, new Set(['src']));
    expect(rows.map((r) => [r.entry.path, r.depth])).toEqual([
      ['src', 0],
      ['src/a.ts', 1],
      ['test', 0],
      ['README.md', 0],
    ]);
  });

  it('should reload the parents of created, deleted and moved paths when they are loaded', () => {
    const loaded = ['', 'src', 'lib'];
    const reload = dirsToReload(loaded, [
      { path: 'src/new.ts', kind: 'created' },
      { path: 'lib/moved.ts', kind: 'renamed', from: 'other/old.ts' },
      { path: 'src/a.ts', kind: 'changed' },
      { path: 'notloaded/x.ts', kind: 'deleted' },
    ]);
    expect(reload.sort()).toEqual(['lib', 'src']);
    expect(dirsToReload(loaded, [], true).sort()).toEqual(['', 'lib', 'src']);
  });

  it('should forget listings and expansion below a deleted folder but keep its siblings', () => {
    const listings: Listings = { '': listing([]), src: listing([]), 'src/deep': listing([]), srcx: listing([]) };
    expect(Object.keys(pruneListings(listings, ['src'])).sort()).toEqual(['', 'srcx']);
    expect([...dropExpanded(new Set(['src', 'src/deep', 'srcx']), ['src'])]).toEqual(['srcx']);
  });

  it('should carry expansion along when a folder is moved', () => {
    expect([...moveExpanded(new Set(['a', 'a/b', 'ab']), 'a', 'z/a')].sort()).toEqual(['ab', 'z/a', 'z/a/b']);
  });

  it('should refuse to drop a folder into itself or where it already is', () => {
    expect(dropTarget('src/a.ts', 'lib')).toBe('lib/a.ts');
    expect(dropTarget('src/a.ts', '')).toBe('a.ts');
    expect(dropTarget('src/a.ts', 'src')).toBeNull();
    expect(dropTarget('src', 'src/inner')).toBeNull();
  });

  it('should explain a bad name instead of sending it', () => {
    expect(nameProblem('ok.ts')).toBeNull();
    expect(nameProblem('  ')).toMatch(/Type a name/);
    expect(nameProblem('a/b')).toMatch(/cannot contain/);
    expect(nameProblem('..')).toMatch(/another name/);
    expect(nameProblem('a\\b', { nested: true })).toMatch(/cannot contain/);
  });

  it('should take a relative path for a new entry, and one segment for a rename', () => {
    expect(nameProblem('src/util.ts', { nested: true })).toBeNull();
    expect(nameProblem('src/util.ts')).toMatch(/drag the entry/);
    expect(nameProblem('/etc/passwd', { nested: true })).toMatch(/relative/);
    expect(nameProblem('src//util.ts', { nested: true })).toMatch(/relative/);
    expect(nameProblem('src/', { nested: true })).toMatch(/relative/);
    expect(nameProblem('src/../../x', { nested: true })).toMatch(/another name/);
    expect(nameProblem(`a/${'x'.repeat(256)}`, { nested: true })).toMatch(/255 bytes/);
  });
});
