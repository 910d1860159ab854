// The editor's tabs as data: what is open, what each buffer holds against the version it is based
// on (dirty = they differ), pending changes from outside and open conflicts. A pure reducer,
// unit-tested; the editor area performs the requests and dispatches their outcomes.

export interface Conflict {
  /** What is in the workspace now (null content: the file is gone). */
  theirs: string | null;
  theirsEtag: string | null;
  mine: string;
}

export interface FileTab {
  kind: 'file';
  id: string;
  path: string;
  status: 'loading' | 'ready' | 'error' | 'binary';
  error: string | null;
  /** The editor buffer. */
  content: string;
  /** The workspace version the buffer is based on, and its ETag (null: not on disk). */
  saved: string;
  etag: string | null;
  saving: boolean;
  /** Changed or deleted in the workspace while this tab had unsaved edits. */
  disk: null | 'changed' | 'deleted';
  conflict: Conflict | null;
  /** A line to reveal once loaded (quick open, the console). */
  line: number | null;
  /** The column on that line (the Problems panel, go to definition); absent: the first. */
  column?: number;
  /**
   * Bumped whenever the buffer is replaced from outside the editor (loaded, reloaded, a conflict
   * resolved): the editor then takes `content`. Typing never bumps it, so the editor stays the
   * owner of its text while the user types.
   */
  rev: number;
}

export interface DiffTab {
  kind: 'diff';
  id: string;
  title: string;
  path?: string;
  original: string;
  modified: string;
  language?: string;
}

export type Tab = FileTab | DiffTab;

export interface TabsState {
  tabs: Tab[];
  active: string | null;
}

export type TabsAction =
  | { type: 'open'; path: string; line?: number; column?: number; background?: boolean }
  | { type: 'loaded'; path: string; content: string; etag: string; binary?: boolean }
  | { type: 'reloaded'; path: string; content: string; etag: string }
  | { type: 'loadFailed'; path: string; error: string }
  | { type: 'edit'; path: string; content: string; external?: boolean }
  | { type: 'saving'; path: string; saving: boolean }
  | { type: 'saved'; path: string; content: string; etag: string }
  | { type: 'conflict'; path: string; conflict: Conflict | null }
  | { type: 'disk'; path: string; disk: 'changed' | 'deleted' | null }
  | { type: 'renamed'; from: string; to: string }
  | { type: 'openDiff'; tab: Omit<DiffTab, 'kind' | 'id'> }
  | { type: 'activate'; id: string }
  | { type: 'close'; id: string }
  | { type: 'lineShown'; path: string };

export const fileTabId = (path: string) => `file:${path}`;

export const isDirty = (tab: Tab): boolean => tab.kind === 'file' && tab.status === 'ready' && tab.content !== tab.saved;

export const initialTabs = (paths: string[], active: string | null): TabsState => {
  const tabs = paths.map((path) => newFileTab(path, null));
  const activeId = active && paths.includes(active) ? fileTabId(active) : (tabs[0]?.id ?? null);
  return { tabs, active: activeId };
};

function newFileTab(path: string, line: number | null): FileTab {
  return { kind: 'file', id: fileTabId(path), path, status: 'loading', error: null, content: '', saved: '', etag: null, saving: false, disk: null, conflict: null, line, rev: 0 };
}

function updateFile(state: TabsState, path: string, fn: (tab: FileTab) => FileTab): TabsState {
  const id = fileTabId(path);
  let changed = false;
  const tabs = state.tabs.map((t) => {
    if (t.id !== id || t.kind !== 'file') return t;
    changed = true;
    return fn(t);
  });
  return changed ? { ...state, tabs } : state;
}

let diffCounter = 0;

export function tabsReducer(state: TabsState, action: TabsAction): TabsState {
  switch (action.type) {
    case 'open': {
      const id = fileTabId(action.path);
      const existing = state.tabs.find((t) => t.id === id);
      const tabs = existing
        ? state.tabs.map((t) => (t.id === id && t.kind === 'file' && action.line ? { ...t, line: action.line, column: action.column } : t))
        : [...state.tabs, { ...newFileTab(action.path, action.line ?? null), column: action.column }];
      return { tabs, active: action.background && state.active ? state.active : id };
    }
    case 'loaded':
      return updateFile(state, action.path, (t) => ({
        ...t,
        status: action.binary ? 'binary' : 'ready',
        error: null,
        rev: t.rev + 1,
        content: action.content,
        saved: action.content,
        etag: action.etag,
        disk: null,
        conflict: null,
      }));
    case 'reloaded':
      // A newer version from the workspace replaces a clean buffer; over unsaved edits it only
      // marks the tab, and the user chooses (compare, overwrite, reload).
      return updateFile(state, action.path, (t) =>
        isDirty(t) ? { ...t, disk: 'changed' } : { ...t, status: 'ready', error: null, content: action.content, saved: action.content, etag: action.etag, disk: null, rev: t.rev + 1 },
      );
    case 'loadFailed':
      return updateFile(state, action.path, (t) => ({ ...t, status: 'error', error: action.error }));
    case 'edit':
      return updateFile(state, action.path, (t) => (t.content === action.content ? t : { ...t, content: action.content, rev: action.external ? t.rev + 1 : t.rev }));
    case 'saving':
      return updateFile(state, action.path, (t) => ({ ...t, saving: action.saving }));
    case 'saved':
      // The buffer may have changed while the save was in flight: only what was sent is saved.
      return updateFile(state, action.path, (t) => ({ ...t, saved: action.content, etag: action.etag, saving: false, disk: null, conflict: null }));
    case 'conflict':
      return updateFile(state, action.path, (t) => ({ ...t, conflict: action.conflict, saving: false }));
    case 'disk':
      return updateFile(state, action.path, (t) => ({ ...t, disk: action.disk, etag: action.disk === 'deleted' ? null : t.etag }));
    case 'lineShown':
      return updateFile(state, action.path, (t) => ({ ...t, line: null, column: undefined }));
    case 'renamed': {
      const rename = (p: string) => (p === action.from ? action.to : p.startsWith(action.from + '/') ? action.to + p.slice(action.from.length) : p);
      const tabs = state.tabs.map((t) => (t.kind === 'file' && rename(t.path) !== t.path ? { ...t, path: rename(t.path), id: fileTabId(rename(t.path)) } : t));
      const active = state.active?.startsWith('file:') ? fileTabId(rename(state.active.slice(5))) : state.active;
      return { tabs, active };
    }
    case 'openDiff': {
      const id = `diff:${++diffCounter}`;
      return { tabs: [...state.tabs, { kind: 'diff', id, ...action.tab }], active: id };
    }
    case 'activate':
      return state.tabs.some((t) => t.id === action.id) ? { ...state, active: action.id } : state;
    case 'close': {
      const i = state.tabs.findIndex((t) => t.id === action.id);
      if (i < 0) return state;
      const tabs = state.tabs.filter((t) => t.id !== action.id);
      const active = state.active === action.id ? (tabs[Math.min(i, tabs.length - 1)]?.id ?? null) : state.active;
      return { tabs, active };
    }
  }
}

export function activeFileTab(state: TabsState): FileTab | null {
  const tab = state.tabs.find((t) => t.id === state.active);
  return tab?.kind === 'file' ? tab : null;
}
