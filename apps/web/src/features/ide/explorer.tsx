'use client';

import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { FileEntry } from '@h/contracts';
import { errorMessage } from '../../lib/api-client';
import { ConfirmDelete, ContextMenu, type MenuItem } from './explorer-menu';
import { dropTarget, nameProblem, parentDir, visibleRows } from './file-tree-state';
import { filesClient, joinPath } from './files-client';
import { NewFileIcon, NewFolderIcon, RefreshIcon, UploadIcon } from './icons';
import type { IdeContext } from './panels';
import { useWorkbench } from './workbench';

type Editing = { mode: 'file' | 'directory'; dir: string } | { mode: 'rename'; path: string };
const DRAG_TYPE = 'application/x-h-path';

// The explorer: the workspace's files as a keyboard-navigable tree, folders listed when first
// opened; members create, rename, move (drag a row onto a folder), delete and upload.
export function ExplorerView({ ctx }: { ctx: IdeContext }) {
  const wb = useWorkbench();
  const { tree, output } = wb;
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; entry: FileEntry | null } | null>(null);
  const [deleting, setDeleting] = useState<{ entry: FileEntry; pending: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dropDir, setDropDir] = useState<string | null>(null);
  const upload = useRef<HTMLInputElement>(null);
  const uploadDir = useRef('');
  const treeRef = useRef<HTMLUListElement>(null);

  const rows = useMemo(() => visibleRows(tree.listings, tree.expanded), [tree.listings, tree.expanded]);
  const entryOf = useCallback((path: string | null) => (path === null ? null : (rows.find((r) => r.entry.path === path)?.entry ?? null)), [rows]);
  const targetDir = useCallback(() => {
    const entry = entryOf(selected);
    if (!entry) return '';
    return entry.type === 'directory' ? entry.path : parentDir(entry.path);
  }, [entryOf, selected]);

  const fail = useCallback((what: string, err: unknown) => {
    const message = `${what}: ${errorMessage(err)}`;
    setError(message);
    output.error(message);
  }, [output]);

  const startCreate = useCallback((mode: 'file' | 'directory', dir = targetDir()) => {
    if (!ctx.canWrite) return;
    if (dir) tree.reveal(dir, true);
    setEditing({ mode, dir });
  }, [ctx.canWrite, targetDir, tree]);

  useEffect(() => {
    wb.explorerActions.current = {
      newFile: () => startCreate('file'),
      newFolder: () => startCreate('directory'),
      focus: () => treeRef.current?.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]')?.focus() ?? treeRef.current?.focus(),
    };
    return () => {
      wb.explorerActions.current = null;
    };
  }, [wb.explorerActions, startCreate]);

  const submitName = async (name: string): Promise<boolean> => {
    if (!editing) return true;
    const problem = nameProblem(name, { nested: editing.mode !== 'rename' });
    if (problem) {
      setError(problem);
      return false;
    }
    setError(null);
    try {
      if (editing.mode === 'rename') {
        const to = joinPath(parentDir(editing.path), name.trim());
        if (to !== editing.path) await move(editing.path, to);
      } else {
        const path = joinPath(editing.dir, name.trim());
        await filesClient.create(ctx.workspaceId, path, editing.mode);
        tree.reload(editing.dir);
        output.info(`Created ${path}.`);
        // A path ("src/util.ts") created folders on the way: open them down to the new entry.
        tree.reveal(path);
        setSelected(path);
        if (editing.mode === 'file') ctx.openFile(path);
      }
      setEditing(null);
      return true;
    } catch (err) {
      fail(editing.mode === 'rename' ? `Could not rename ${editing.path}` : 'Could not create it', err);
      return false;
    }
  };

  const move = async (from: string, to: string) => {
    await filesClient.move(ctx.workspaceId, from, to);
    tree.moved(from, to);
    tree.reload(parentDir(from));
    tree.reload(parentDir(to));
    wb.entryMoved(from, to);
    setSelected(to);
    output.info(`Moved ${from} to ${to}.`);
  };

  const remove = async (entry: FileEntry) => {
    setDeleting({ entry, pending: true });
    try {
      await filesClient.remove(ctx.workspaceId, entry.path, entry.type === 'directory');
      tree.reload(parentDir(entry.path));
      output.info(`Deleted ${entry.path}.`);
      setDeleting(null);
      setSelected(null);
    } catch (err) {
      setDeleting(null);
      fail(`Could not delete ${entry.path}`, err);
    }
  };

  const onUpload = async (list: FileList | null) => {
    const dir = uploadDir.current;
    for (const file of [...(list ?? [])]) {
      const path = joinPath(dir, file.name);
      try {
        await filesClient.upload(ctx.workspaceId, path, file);
        output.info(`Uploaded ${path}.`);
      } catch (err) {
        fail(`Could not upload ${file.name}`, err);
      }
    }
    tree.reload(dir);
    if (upload.current) upload.current.value = '';
  };
  const startUpload = (dir: string) => {
    uploadDir.current = dir;
    upload.current?.click();
  };

  const activate = (entry: FileEntry) => {
    setSelected(entry.path);
    if (entry.type === 'directory') tree.toggle(entry.path);
    else ctx.openFile(entry.path);
  };

  const menuItems = (entry: FileEntry | null): MenuItem[] => {
    const dir = entry ? (entry.type === 'directory' ? entry.path : parentDir(entry.path)) : '';
    const items: MenuItem[] = [];
    if (entry?.type === 'file') items.push({ label: 'Open', run: () => ctx.openFile(entry.path) });
    if (ctx.canWrite) {
      items.push({ label: 'New File…', run: () => startCreate('file', dir) }, { label: 'New Folder…', run: () => startCreate('directory', dir) }, { label: 'Upload Files…', run: () => startUpload(dir) });
      if (entry) items.push({ label: 'Rename…', run: () => setEditing({ mode: 'rename', path: entry.path }) }, { label: 'Delete…', danger: true, run: () => setDeleting({ entry, pending: false }) });
    }
    if (entry) items.push({ label: 'Copy Path', run: () => void navigator.clipboard?.writeText(entry.path) });
    return items;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (editing) return;
    const i = rows.findIndex((r) => r.entry.path === selected);
    const row = rows[i];
    const focus = (path: string) => {
      setSelected(path);
      requestAnimationFrame(() => treeRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`)?.focus());
    };
    const key = event.key;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      const next = rows[Math.max(0, Math.min(rows.length - 1, i + (key === 'ArrowDown' ? 1 : -1)))];
      if (next) focus(next.entry.path);
    } else if (key === 'ArrowRight' && row?.entry.type === 'directory') {
      if (!row.expanded) tree.toggle(row.entry.path);
      else if (rows[i + 1]?.depth === row.depth + 1) focus(rows[i + 1].entry.path);
    } else if (key === 'ArrowLeft' && row) {
      if (row.expanded) tree.toggle(row.entry.path);
      else if (parentDir(row.entry.path)) focus(parentDir(row.entry.path));
    } else if (key === 'Enter' && row) activate(row.entry);
    else if (key === 'F2' && row && ctx.canWrite) setEditing({ mode: 'rename', path: row.entry.path });
    else if (key === 'Delete' && row && ctx.canWrite) setDeleting({ entry: row.entry, pending: false });
    else if ((key === 'ContextMenu' || (key === 'F10' && event.shiftKey)) && row) {
      const rect = (event.target as HTMLElement).getBoundingClientRect();
      setMenu({ x: rect.left + 24, y: rect.bottom, entry: row.entry });
    } else return;
    event.preventDefault();
  };

  const dragProps = (entry: FileEntry | null) => {
    const dir = entry ? (entry.type === 'directory' ? entry.path : parentDir(entry.path)) : '';
    return ctx.canWrite
      ? {
          onDragOver: (e: DragEvent) => {
            if (!e.dataTransfer.types.includes(DRAG_TYPE) && !e.dataTransfer.types.includes('Files')) return;
            e.preventDefault();
            e.stopPropagation();
            setDropDir(dir);
          },
          onDragLeave: () => setDropDir((d) => (d === dir ? null : d)),
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            e.stopPropagation();
            setDropDir(null);
            if (e.dataTransfer.files.length) {
              uploadDir.current = dir;
              return void onUpload(e.dataTransfer.files);
            }
            const from = e.dataTransfer.getData(DRAG_TYPE);
            const to = from ? dropTarget(from, dir) : null;
            if (from && to) move(from, to).catch((err: unknown) => fail(`Could not move ${from}`, err));
          },
        }
      : {};
  };

  const root = tree.listings[''];
  return (
    <div className="ide-explorer" {...dragProps(null)} onContextMenu={(e) => { e.preventDefault(); setMenu({ x: e.clientX, y: e.clientY, entry: null }); }}>
      <div className="ide-view-header">
        <h2>Explorer</h2>
        <div className="ide-view-actions">
          {ctx.canWrite ? (
            <>
              <button type="button" className="icon-button" aria-label="New file" title="New file" onClick={() => startCreate('file')}><NewFileIcon /></button>
              <button type="button" className="icon-button" aria-label="New folder" title="New folder" onClick={() => startCreate('directory')}><NewFolderIcon /></button>
              <button type="button" className="icon-button" aria-label="Upload files" title="Upload files" onClick={() => startUpload(targetDir())}><UploadIcon /></button>
            </>
          ) : null}
          <button type="button" className="icon-button" aria-label="Refresh the explorer" title="Refresh" onClick={tree.refresh}><RefreshIcon /></button>
        </div>
      </div>
      <input ref={upload} type="file" multiple hidden aria-hidden="true" tabIndex={-1} onChange={(e) => void onUpload(e.target.files)} />
      {error ? (
        <p className="ide-explorer-error" role="alert">
          {error}{' '}
          <button type="button" className="link-button" onClick={() => setError(null)}>Dismiss</button>
        </p>
      ) : null}
      {!root || (root.loading && !root.entries) ? <p className="muted small ide-pad">Loading files…</p> : null}
      {root?.error && !root.entries ? (
        <p className="form-error ide-pad" role="alert">
          Could not list the files: {root.error} <button type="button" className="link-button" onClick={() => tree.reload('')}>Try again</button>
        </p>
      ) : null}
      {editing && editing.mode !== 'rename' && editing.dir === '' ? <NameInput depth={0} mode={editing.mode} onSubmit={submitName} onCancel={() => setEditing(null)} /> : null}
      {root?.entries && !root.entries.length && !editing ? <p className="muted small ide-pad">This workspace has no files yet.{ctx.canWrite ? ' Create one with the New file button, or drop files here.' : ''}</p> : null}
      <ul ref={treeRef} className="ide-tree" role="tree" aria-label="Files" onKeyDown={onKeyDown}>
        {rows.map(({ entry, depth, expanded }) => {
          const isDir = entry.type === 'directory';
          const renaming = editing?.mode === 'rename' && editing.path === entry.path;
          const listing = isDir ? tree.listings[entry.path] : undefined;
          return (
            <li key={entry.path} role="none">
              {renaming ? (
                <NameInput depth={depth} mode="rename" initial={entry.name} onSubmit={submitName} onCancel={() => setEditing(null)} />
              ) : (
                <div
                  role="treeitem"
                  aria-level={depth + 1}
                  aria-expanded={isDir ? expanded : undefined}
                  aria-selected={selected === entry.path}
                  aria-busy={listing?.loading || undefined}
                  tabIndex={selected === entry.path || (!selected && rows[0]?.entry.path === entry.path) ? 0 : -1}
                  data-path={entry.path}
                  data-testid="tree-item"
                  className={`ide-tree-row${selected === entry.path ? ' ide-tree-selected' : ''}${dropDir === entry.path && isDir ? ' ide-tree-drop' : ''}${ctx.activeFile === entry.path ? ' ide-tree-active' : ''}`}
                  style={{ paddingLeft: 8 + depth * 14 }}
                  draggable={ctx.canWrite}
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_TYPE, entry.path);
                    e.dataTransfer.effectAllowed = 'move';
                  }}
                  {...dragProps(entry)}
                  onClick={() => activate(entry)}
                  onFocus={() => setSelected(entry.path)}
                  onContextMenu={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    setSelected(entry.path);
                    setMenu({ x: e.clientX, y: e.clientY, entry });
                  }}
                >
                  <span className="ide-tree-twisty" aria-hidden="true">{isDir ? (expanded ? '▾' : '▸') : ''}</span>
                  <span className="ide-tree-name">{entry.name}</span>
                  {listing?.error ? <span className="ide-tree-flag" title={listing.error}> ⚠</span> : null}
                  {listing?.truncated ? <span className="ide-tree-flag" title="More entries than the listing limit"> …</span> : null}
                </div>
              )}
              {editing && editing.mode !== 'rename' && isDir && expanded && editing.dir === entry.path ? (
                <NameInput depth={depth + 1} mode={editing.mode} onSubmit={submitName} onCancel={() => setEditing(null)} />
              ) : null}
            </li>
          );
        })}
      </ul>
      {menu ? <ContextMenu x={menu.x} y={menu.y} items={menuItems(menu.entry)} onClose={() => setMenu(null)} /> : null}
      {deleting ? (
        <ConfirmDelete
          path={deleting.entry.path}
          isDir={deleting.entry.type === 'directory'}
          pending={deleting.pending}
          onConfirm={() => void remove(deleting.entry)}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}

function NameInput({ depth, mode, initial = '', onSubmit, onCancel }: { depth: number; mode: 'file' | 'directory' | 'rename'; initial?: string; onSubmit: (name: string) => Promise<boolean>; onCancel: () => void }) {
  const [value, setValue] = useState(initial);
  // Enter and the blur that may follow must not create the entry twice.
  const busy = useRef(false);
  const submit = async () => {
    if (busy.current) return;
    busy.current = true;
    if (!(await onSubmit(value))) busy.current = false;
  };
  const label = mode === 'rename' ? `New name for ${initial}` : mode === 'file' ? 'New file name' : 'New folder name';
  return (
    <form
      className="ide-tree-input"
      style={{ paddingLeft: 8 + depth * 14 }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <input
        autoFocus
        aria-label={label}
        placeholder={label}
        value={value}
        maxLength={255}
        onChange={(e) => setValue(e.target.value)}
        onFocus={(e) => {
          const dot = initial.lastIndexOf('.');
          e.target.setSelectionRange(0, dot > 0 ? dot : initial.length);
        }}
        onKeyDown={(e) => e.key === 'Escape' && onCancel()}
        onBlur={() => (value.trim() && value !== initial ? void submit() : busy.current || onCancel())}
      />
    </form>
  );
}

