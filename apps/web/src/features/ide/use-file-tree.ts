'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FilesChangedEvent } from '@h/contracts';
import { errorMessage } from '../../lib/api-client';
import { filesClient } from './files-client';
import { dirsToReload, dropExpanded, type Listings, moveExpanded, parentDir, pruneListings, sortEntries } from './file-tree-state';
import type { OutputLog } from './output-log';

export interface FileTreeApi {
  listings: Listings;
  expanded: ReadonlySet<string>;
  toggle(dir: string): void;
  /** Expand every folder on the way to `path` (and `path` itself when it is a folder). */
  reveal(path: string, includeSelf?: boolean): void;
  reload(dir: string): void;
  refresh(): void;
  /** After a move through the explorer: expansion follows the folder. */
  moved(from: string, to: string): void;
  applyChanges(event: FilesChangedEvent): void;
}

// The explorer's data, lifted into the shell so switching side views keeps it: lazy listings per
// folder, the expanded set (saved in the ide-state), and reloads driven by live file changes.
export function useFileTree(workspaceId: string, initialExpanded: string[], output: OutputLog, onExpandedChange: (dirs: string[]) => void): FileTreeApi {
  const [listings, setListings] = useState<Listings>({});
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(initialExpanded));
  const listingsRef = useRef(listings);
  listingsRef.current = listings;
  const onExpandedRef = useRef(onExpandedChange);
  onExpandedRef.current = onExpandedChange;

  const load = useCallback(
    (dir: string) => {
      setListings((l) => ({ ...l, [dir]: { entries: l[dir]?.entries ?? null, truncated: l[dir]?.truncated ?? false, loading: true, error: null } }));
      filesClient.list(workspaceId, dir).then(
        (tree) => setListings((l) => ({ ...l, [dir]: { entries: sortEntries(tree.entries), truncated: tree.truncated, loading: false, error: null } })),
        (err: unknown) => {
          const message = errorMessage(err);
          // A folder remembered from an earlier visit that is gone now: forget it quietly.
          if ((err as { code?: string }).code === 'FILE_NOT_FOUND' || (err as { code?: string }).code === 'NOT_DIRECTORY') {
            setListings((l) => pruneListings(l, [dir]));
            setExpanded((e) => dropExpanded(e, [dir]));
            return;
          }
          output.error(`Could not list ${dir || 'the workspace root'}: ${message}`);
          setListings((l) => ({ ...l, [dir]: { entries: l[dir]?.entries ?? null, truncated: false, loading: false, error: message } }));
        },
      );
    },
    [workspaceId, output],
  );

  // First load: the root and every folder that was expanded last time.
  useEffect(() => {
    load('');
    for (const dir of initialExpanded) load(dir);
    // initialExpanded is read once on mount (it comes from the stored ide-state).
  }, [load]);

  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    onExpandedRef.current([...expanded].sort());
  }, [expanded]);

  const toggle = useCallback(
    (dir: string) => {
      setExpanded((e) => {
        const next = new Set(e);
        if (next.has(dir)) next.delete(dir);
        else {
          next.add(dir);
          if (!listingsRef.current[dir]?.entries) load(dir);
        }
        return next;
      });
    },
    [load],
  );

  const reveal = useCallback(
    (path: string, includeSelf = false) => {
      const dirs: string[] = [];
      for (let d = includeSelf ? path : parentDir(path); d; d = parentDir(d)) dirs.push(d);
      setExpanded((e) => {
        const missing = dirs.filter((d) => !e.has(d));
        if (!missing.length) return e;
        for (const d of missing) if (!listingsRef.current[d]?.entries) load(d);
        return new Set([...e, ...missing]);
      });
    },
    [load],
  );

  const refresh = useCallback(() => {
    for (const dir of Object.keys(listingsRef.current)) load(dir);
  }, [load]);

  const moved = useCallback((from: string, to: string) => {
    setExpanded((e) => moveExpanded(e, from, to));
    setListings((l) => pruneListings(l, [from]));
  }, []);

  const applyChanges = useCallback(
    (event: FilesChangedEvent) => {
      const gone = event.changes.filter((c) => c.kind === 'deleted' && c.type !== 'file').map((c) => c.path);
      const movedDirs = event.changes.filter((c) => c.kind === 'renamed' && c.type === 'directory' && c.from);
      if (gone.length) {
        setListings((l) => pruneListings(l, gone));
        setExpanded((e) => dropExpanded(e, gone));
      }
      for (const c of movedDirs) setExpanded((e) => moveExpanded(e, c.from as string, c.path));
      const loaded = Object.keys(listingsRef.current).filter((d) => !gone.some((g) => d === g || d.startsWith(g + '/')));
      for (const dir of dirsToReload(loaded, event.changes, event.resync)) load(dir);
    },
    [load],
  );

  return useMemo(
    () => ({ listings, expanded, toggle, reveal, reload: load, refresh, moved, applyChanges }),
    [listings, expanded, toggle, reveal, load, refresh, moved, applyChanges],
  );
}
