'use client';

import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { FileContent, FilesChangedEvent } from '@h/contracts';
import { ApiError, errorMessage } from '../../lib/api-client';
import { activeFileTab, fileTabId, initialTabs, isDirty, tabsReducer, type Conflict, type DiffTab, type FileTab, type TabsAction, type TabsState } from './editor-tabs-state';
import { editConflictOf, filesClient } from './files-client';
import type { OutputLog } from './output-log';

export interface EditorFiles {
  state: TabsState;
  dispatch(action: TabsAction): void;
  active: FileTab | null;
  open(path: string, line?: number, column?: number): void;
  openDiff(tab: Omit<DiffTab, 'kind' | 'id'>): void;
  /** Resolves true once saved; false when a conflict opened or the save failed (both shown). */
  save(path?: string): Promise<boolean>;
  close(id: string): void;
  /** Unsaved edits vs. a change in the workspace: the three ways out. */
  compare(path: string): Promise<void>;
  overwrite(path: string): Promise<void>;
  reload(path: string): Promise<void>;
  /** Resolve an open conflict with the content of the compare's right side, or the workspace's. */
  keepMine(path: string, content: string): Promise<void>;
  takeTheirs(path: string): void;
  applyChanges(event: FilesChangedEvent): void;
}

const textOf = (file: FileContent) => (file.encoding === 'utf8' ? file.content : null);

// The requests behind the editor's tabs: loading, If-Match saves, the 409 compare, and what a
// change in the workspace does to an open tab (clean: reload; dirty: ask).
/**
 * `buffer` reads a tab's live text from the editor itself. A save takes the text from there, not
 * from React state, because the last keystrokes before Ctrl+S may not have rendered yet: saving
 * the rendered text would drop them and leave the tab dirty.
 */
export function useEditorFiles(
  workspaceId: string,
  initial: { tabs: string[]; active: string | null },
  output: OutputLog,
  buffer: (path: string) => string | null = () => null,
): EditorFiles {
  const [state, dispatch] = useReducer(tabsReducer, initial, (i) => initialTabs(i.tabs, i.active));
  const stateRef = useRef(state);
  stateRef.current = state;
  const loading = useRef(new Set<string>());
  // files.changed that arrived while a save of the same path was in flight: judged once it ends.
  const heldWhileSaving = useRef(new Map<string, string | undefined>());

  const fileTab = (path: string) => stateRef.current.tabs.find((t): t is FileTab => t.kind === 'file' && t.path === path) ?? null;

  // Load every tab that is waiting for its content (opened, or restored from the ide-state).
  useEffect(() => {
    for (const tab of state.tabs) {
      if (tab.kind !== 'file' || tab.status !== 'loading' || loading.current.has(tab.path)) continue;
      const path = tab.path;
      loading.current.add(path);
      filesClient
        .read(workspaceId, path)
        .then(
          (file) => {
            const text = textOf(file);
            dispatch({ type: 'loaded', path, content: text ?? '', etag: file.etag, binary: text === null });
          },
          (err: unknown) => dispatch({ type: 'loadFailed', path, error: errorMessage(err) }),
        )
        .finally(() => loading.current.delete(path));
    }
  }, [state.tabs, workspaceId]);

  const readInto = useCallback(
    async (path: string, type: 'reloaded' | 'loaded') => {
      try {
        const file = await filesClient.read(workspaceId, path);
        dispatch({ type, path, content: textOf(file) ?? '', etag: file.etag });
        return file;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'FILE_NOT_FOUND') dispatch({ type: 'disk', path, disk: 'deleted' });
        else output.error(`Could not read ${path}: ${errorMessage(err)}`);
        return null;
      }
    },
    [workspaceId, output],
  );

  const showConflict = useCallback(async (path: string, mine: string) => {
    try {
      const file = await filesClient.read(workspaceId, path);
      dispatch({ type: 'conflict', path, conflict: { theirs: textOf(file), theirsEtag: file.etag, mine } });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'FILE_NOT_FOUND') dispatch({ type: 'conflict', path, conflict: { theirs: null, theirsEtag: null, mine } });
      else output.error(`Could not read ${path} to compare: ${errorMessage(err)}`);
    }
  }, [workspaceId, output]);

  /** Write `content` over the version `etag` names; a mismatch opens the compare. */
  const writeOver = useCallback(
    async (path: string, content: string, etag: string | null): Promise<boolean> => {
      dispatch({ type: 'saving', path, saving: true });
      try {
        const result = await filesClient.write(workspaceId, path, content, etag);
        dispatch({ type: 'saved', path, content, etag: result.etag });
        output.info(`Saved ${path}.`);
        const held = heldWhileSaving.current.get(path);
        heldWhileSaving.current.delete(path);
        // Someone else wrote after us while the save was in flight: treat it like any change.
        if (held !== undefined && held !== result.etag) void readInto(path, 'reloaded');
        return true;
      } catch (err) {
        heldWhileSaving.current.delete(path);
        const conflict = editConflictOf(err);
        if (conflict) {
          const theirs: Conflict = {
            theirs: conflict.current?.encoding === 'utf8' && conflict.current.content !== undefined ? conflict.current.content : null,
            theirsEtag: conflict.current?.etag ?? null,
            mine: content,
          };
          dispatch({ type: 'conflict', path, conflict: theirs });
          output.error(`${path} changed in the workspace since you opened it: compare the versions and choose.`);
          return false;
        }
        dispatch({ type: 'saving', path, saving: false });
        // No If-Match while a file is there (it reappeared after a delete): compare as well.
        if (err instanceof ApiError && err.code === 'PRECONDITION_REQUIRED') {
          await showConflict(path, content);
          return false;
        }
        output.error(`Could not save ${path}: ${errorMessage(err)}`);
        throw err;
      }
    },
    [workspaceId, output, readInto, showConflict],
  );

  const save = useCallback(
    async (path?: string) => {
      const tab = path ? fileTab(path) : activeFileTab(stateRef.current);
      if (!tab || tab.status !== 'ready' || tab.saving || tab.conflict) return false;
      const live = buffer(tab.path);
      if (live !== null && live !== tab.content) dispatch({ type: 'edit', path: tab.path, content: live });
      return writeOver(tab.path, live ?? tab.content, tab.etag).catch(() => false);
    },
    [writeOver, buffer],
  );

  const open = useCallback((path: string, line?: number, column?: number) => dispatch({ type: 'open', path, line, column }), []);
  const openDiff = useCallback((tab: Omit<DiffTab, 'kind' | 'id'>) => dispatch({ type: 'openDiff', tab }), []);
  const close = useCallback((id: string) => dispatch({ type: 'close', id }), []);

  const compare = useCallback(async (path: string) => {
    const tab = fileTab(path);
    if (tab) await showConflict(path, tab.content);
  }, [showConflict]);

  const overwrite = useCallback(
    async (path: string) => {
      const tab = fileTab(path);
      if (!tab) return;
      let etag: string | null = null;
      try {
        etag = (await filesClient.read(workspaceId, path)).etag;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'FILE_NOT_FOUND')) return void output.error(`Could not read ${path}: ${errorMessage(err)}`);
      }
      await writeOver(path, tab.content, etag).catch(() => undefined);
    },
    [workspaceId, output, writeOver],
  );

  const reload = useCallback(async (path: string) => void (await readInto(path, 'loaded')), [readInto]);

  const keepMine = useCallback(
    async (path: string, content: string) => {
      const tab = fileTab(path);
      if (!tab?.conflict) return;
      dispatch({ type: 'edit', path, content, external: true });
      await writeOver(path, content, tab.conflict.theirsEtag).catch(() => undefined);
    },
    [writeOver],
  );

  const takeTheirs = useCallback((path: string) => {
    const tab = fileTab(path);
    if (!tab?.conflict) return;
    const { theirs, theirsEtag } = tab.conflict;
    if (theirs === null || theirsEtag === null) {
      dispatch({ type: 'close', id: fileTabId(path) });
      output.info(`${path} is gone from the workspace; its tab was closed.`);
      return;
    }
    dispatch({ type: 'loaded', path, content: theirs, etag: theirsEtag });
  }, [output]);

  const applyChanges = useCallback(
    (event: FilesChangedEvent) => {
      const tabs = stateRef.current.tabs.filter((t): t is FileTab => t.kind === 'file' && t.status !== 'loading');
      if (event.resync) {
        for (const tab of tabs) void readInto(tab.path, 'reloaded');
        return;
      }
      for (const change of event.changes) {
        if (change.kind === 'renamed' && change.from) {
          if (tabs.some((t) => t.path === change.from || t.path.startsWith(change.from + '/'))) {
            dispatch({ type: 'renamed', from: change.from, to: change.path });
            output.info(`${change.from} was moved to ${change.path}; its tab follows.`);
          }
          continue;
        }
        const tab = tabs.find((t) => t.path === change.path);
        if (!tab) continue;
        if (change.kind === 'deleted') {
          dispatch({ type: 'disk', path: tab.path, disk: 'deleted' });
          continue;
        }
        if (change.etag && change.etag === tab.etag) continue;
        if (tab.saving) {
          heldWhileSaving.current.set(tab.path, change.etag);
          continue;
        }
        if (isDirty(tab)) dispatch({ type: 'disk', path: tab.path, disk: 'changed' });
        else void readInto(tab.path, 'reloaded').then((f) => f && output.info(`Reloaded ${tab.path}: it changed in the workspace.`));
      }
    },
    [readInto, output],
  );

  const active = activeFileTab(state);
  return useMemo(
    () => ({ state, dispatch, active, open, openDiff, save, close, compare, overwrite, reload, keepMine, takeTheirs, applyChanges }),
    [state, active, open, openDiff, save, close, compare, overwrite, reload, keepMine, takeTheirs, applyChanges],
  );
}
