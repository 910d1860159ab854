import { activeFileTab, fileTabId, initialTabs, isDirty, tabsReducer, type FileTab, type TabsState } from './editor-tabs-state';

const file = (s: TabsState, path: string) => s.tabs.find((t) => t.id === fileTabId(path)) as FileTab;

describe('tabsReducer', () => {
  it('should open a file once, activate it, and be dirty only when the buffer differs from the saved version', () => {
    let s = initialTabs([], null);
    s = tabsReducer(s, { type: 'open', path: 'a.ts' });
    s = tabsReducer(s, { type: 'open', path: 'a.ts' });
    expect(s.tabs).toHaveLength(1);
    s = tabsReducer(s, { type: 'loaded', path: 'a.ts', content: 'x', etag: '"1"' });
    expect(isDirty(file(s, 'a.ts'))).toBe(false);
    s = tabsReducer(s, { type: 'edit', path: 'a.ts', content: 'xy' });
    expect(isDirty(file(s, 'a.ts'))).toBe(true);
    s = tabsReducer(s, { type: 'edit', path: 'a.ts', content: 'x' });
    expect(isDirty(file(s, 'a.ts'))).toBe(false);
  });

  it('should keep the line and column asked for (a problem, a definition) until the editor showed them', () => {
    let s = tabsReducer(initialTabs([], null), { type: 'open', path: 'a.ts', line: 5, column: 14 });
    expect(file(s, 'a.ts')).toMatchObject({ line: 5, column: 14 });
    s = tabsReducer(s, { type: 'lineShown', path: 'a.ts' });
    expect(file(s, 'a.ts')).toMatchObject({ line: null, column: undefined });
    s = tabsReducer(s, { type: 'open', path: 'a.ts', line: 2, column: 3 });
    expect(file(s, 'a.ts')).toMatchObject({ line: 2, column: 3 });
  });

  it('should keep edits typed while a save was in flight dirty', () => {
    let s = tabsReducer(initialTabs(['a.ts'], 'a.ts'), { type: 'loaded', path: 'a.ts', content: 'v1', etag: '"1"' });
    s = tabsReducer(s, { type: 'edit', path: 'a.ts', content: 'v2' });
    s = tabsReducer(s, { type: 'saving', path: 'a.ts', saving: true });
    s = tabsReducer(s, { type: 'edit', path: 'a.ts', content: 'v3' });
    s = tabsReducer(s, { type: 'saved', path: 'a.ts', content: 'v2', etag: '"2"' });
    expect(file(s, 'a.ts')).toMatchObject({ saved: 'v2', etag: '"2"', content: 'v3', saving: false });
    expect(isDirty(file(s, 'a.ts'))).toBe(true);
  });

  it('should reopen the stored tabs with the stored one active', () => {
    const s = initialTabs(['a.ts', 'b.ts'], 'b.ts');
    expect(s.active).toBe(fileTabId('b.ts'));
    expect(initialTabs(['a.ts'], 'gone.ts').active).toBe(fileTabId('a.ts'));
  });

  it('should activate the neighbour when the active tab closes', () => {
    let s = initialTabs(['a', 'b', 'c'], 'b');
    s = tabsReducer(s, { type: 'close', id: fileTabId('b') });
    expect(s.active).toBe(fileTabId('c'));
    s = tabsReducer(s, { type: 'close', id: fileTabId('c') });
    expect(s.active).toBe(fileTabId('a'));
    s = tabsReducer(s, { type: 'close', id: fileTabId('a') });
    expect(s.active).toBeNull();
  });

  it('should follow a folder rename with every tab below it', () => {
    let s = initialTabs(['src/a.ts', 'srcx/b.ts'], 'src/a.ts');
    s = tabsReducer(s, { type: 'renamed', from: 'src', to: 'lib' });
    expect(s.tabs.map((t) => (t as FileTab).path)).toEqual(['lib/a.ts', 'srcx/b.ts']);
    expect(activeFileTab(s)?.path).toBe('lib/a.ts');
  });

  it('should open diff tabs beside files and clear a conflict once saved', () => {
    let s = tabsReducer(initialTabs(['a.ts'], 'a.ts'), { type: 'loaded', path: 'a.ts', content: 'v1', etag: '"1"' });
    s = tabsReducer(s, { type: 'conflict', path: 'a.ts', conflict: { theirs: 'v9', theirsEtag: '"9"', mine: 'v2' } });
    expect(file(s, 'a.ts').conflict?.theirs).toBe('v9');
    s = tabsReducer(s, { type: 'saved', path: 'a.ts', content: 'v2', etag: '"3"' });
    expect(file(s, 'a.ts').conflict).toBeNull();
    s = tabsReducer(s, { type: 'openDiff', tab: { title: 'x', original: 'a', modified: 'b' } });
    expect(s.tabs[1].kind).toBe('diff');
    expect(s.active).toBe(s.tabs[1].id);
    expect(activeFileTab(s)).toBeNull();
  });

  it('should reload a clean tab from the workspace but only mark a dirty one', () => {
    let s = tabsReducer(initialTabs(['a.ts', 'b.ts'], 'a.ts'), { type: 'loaded', path: 'a.ts', content: 'v1', etag: '"1"' });
    s = tabsReducer(s, { type: 'loaded', path: 'b.ts', content: 'b1', etag: '"b1"' });
    s = tabsReducer(s, { type: 'edit', path: 'b.ts', content: 'mine' });
    s = tabsReducer(s, { type: 'reloaded', path: 'a.ts', content: 'v2', etag: '"2"' });
    s = tabsReducer(s, { type: 'reloaded', path: 'b.ts', content: 'b2', etag: '"b2"' });
    expect(file(s, 'a.ts')).toMatchObject({ content: 'v2', saved: 'v2', etag: '"2"', disk: null });
    expect(file(s, 'b.ts')).toMatchObject({ content: 'mine', saved: 'b1', etag: '"b1"', disk: 'changed' });
  });

  it('should bump the revision only when the buffer is replaced from outside the editor', () => {
    let s = tabsReducer(initialTabs(['a.ts'], 'a.ts'), { type: 'loaded', path: 'a.ts', content: 'v1', etag: '"1"' });
    const loaded = file(s, 'a.ts').rev;
    s = tabsReducer(s, { type: 'edit', path: 'a.ts', content: 'typed' });
    expect(file(s, 'a.ts').rev).toBe(loaded);
    s = tabsReducer(s, { type: 'edit', path: 'a.ts', content: 'merged in the compare', external: true });
    expect(file(s, 'a.ts').rev).toBe(loaded + 1);
    s = tabsReducer(s, { type: 'saved', path: 'a.ts', content: 'merged in the compare', etag: '"2"' });
    s = tabsReducer(s, { type: 'reloaded', path: 'a.ts', content: 'v3', etag: '"3"' });
    expect(file(s, 'a.ts')).toMatchObject({ content: 'v3', rev: loaded + 2 });
  });
});
