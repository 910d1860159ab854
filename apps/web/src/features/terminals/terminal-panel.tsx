'use client';

import '@xterm/xterm/css/xterm.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openInBrowserView } from '../browser/browser-open';
import { TerminalView, type TerminalHandle } from './terminal-view';
import { useTerminalSocket } from './use-terminal-socket';
import styles from './terminals.module.css';

/**
 * The IDE's terminals: one tab per PTY of the workspace, shared by the whole team (a teammate's or
 * the agent's terminal shows up here live). Viewers watch; members open, type, resize and close.
 * `focusRequest` grows each time a person asks to see the terminal; the active one then takes the
 * keyboard.
 */
export function TerminalPanel({ workspaceId, canWrite, focusRequest = 0 }: { workspaceId: string; canWrite: boolean; focusRequest?: number }) {
  const { socket, connection, terminals, max, error, generation } = useTerminalSocket(workspaceId);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [exited, setExited] = useState<Record<string, number | null>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const handles = useRef(new Map<string, TerminalHandle>());
  // Pages served by programs started in each terminal (`terminal.preview`, and the attach answer's list).
  const [previews, setPreviews] = useState<Record<string, string[]>>({});
  const addPreviews = useCallback(
    (id: string, urls: string[]) =>
      setPreviews((prev) => {
        const known = prev[id] ?? [];
        const fresh = urls.filter((u) => !known.includes(u));
        return fresh.length ? { ...prev, [id]: [...known, ...fresh] } : prev;
      }),
    [],
  );
  useEffect(() => {
    if (!socket) return;
    const onPreview = (e: { workspaceId: string; terminalId: string; url: string }) => e.workspaceId === workspaceId && addPreviews(e.terminalId, [e.url]);
    socket.on('terminal.preview', onPreview);
    return () => {
      socket.off('terminal.preview', onPreview);
    };
  }, [socket, workspaceId, addPreviews]);

  // A terminal this page just opened: its ack can come before the list that names it
  // (`terminal.changed`), and falling back to the last listed one must not take its place.
  const opened = useRef<string | null>(null);
  const active = terminals.find((t) => t.id === activeId) ?? terminals[terminals.length - 1] ?? null;
  useEffect(() => {
    if (activeId !== null && activeId === opened.current) {
      if (terminals.some((t) => t.id === activeId)) opened.current = null;
      return;
    }
    if (active && active.id !== activeId) setActiveId(active.id);
  }, [active, activeId, terminals]);

  // As in VS Code, asking for the terminal puts the keyboard at its prompt. The first showing opens
  // a terminal first, so the focus waits for the active one's view to exist (onHandle below).
  const pendingFocus = useRef(false);
  const activeRef = useRef<string | null>(null);
  activeRef.current = active?.id ?? null;
  useEffect(() => {
    if (!focusRequest) return;
    const h = activeRef.current ? handles.current.get(activeRef.current) : undefined;
    pendingFocus.current = !h;
    h?.focus();
  }, [focusRequest]);
  useEffect(() => {
    const h = pendingFocus.current && active ? handles.current.get(active.id) : undefined;
    if (!h) return;
    pendingFocus.current = false;
    h.focus();
  }, [active]);

  const onHandle = useCallback((id: string, h: TerminalHandle | null) => {
    if (h) handles.current.set(id, h);
    else handles.current.delete(id);
    if (h && pendingFocus.current && id === activeRef.current) {
      pendingFocus.current = false;
      h.focus();
    }
  }, []);
  const onExit = useCallback((id: string, code: number | null) => setExited((prev) => ({ ...prev, [id]: code })), []);

  const open = useCallback(() => {
    if (!socket) return;
    setNotice(null);
    // Sized like the visible terminal when there is one; the view fits itself right after.
    socket.emit('terminal.open', { workspaceId, cols: 80, rows: 24 }, (ack) => {
      if (ack?.ok) {
        opened.current = ack.data.terminal.id;
        setActiveId(ack.data.terminal.id);
      }
      else setNotice(ack?.error?.message ?? 'Could not open a terminal.');
    });
  }, [socket, workspaceId]);
  // As in VS Code, showing the panel when the workspace has no running terminal opens one (members
  // only); ended ones (their sandbox stopped) stay beside it as history. Once per showing: a
  // reconnect, or a teammate closing the last shell, does not open another.
  // The role may arrive after the panel shows (a reload with the panel open): a member's turn
  // waits for it; a viewer's never comes.
  const autoOpen = useRef(true);
  const running = terminals.filter((t) => !t.ended).length;
  useEffect(() => {
    if (connection !== 'live' || !canWrite || !autoOpen.current) return;
    autoOpen.current = false;
    if (running === 0) open();
  }, [connection, canWrite, running, open]);
  const close = (id: string) => {
    socket?.emit('terminal.close', { workspaceId, terminalId: id }, (ack) => {
      if (!ack?.ok) setNotice(ack?.error?.message ?? 'Could not close the terminal.');
    });
  };
  const rename = () => {
    const r = renaming;
    setRenaming(null);
    if (!r || !r.title.trim()) return;
    socket?.emit('terminal.rename', { workspaceId, terminalId: r.id, title: r.title.trim() }, (ack) => {
      if (!ack?.ok) setNotice(ack?.error?.message ?? 'Could not rename the terminal.');
    });
  };
  const find = (backwards: boolean) => {
    if (active && query) handles.current.get(active.id)?.find(query, backwards);
  };

  // Ended terminals (saved history only) do not count: they hold no process in the sandbox.
  const atMax = max > 0 && running >= max;
  return (
    <section className={styles.panel} aria-label="Terminals">
      <div className={styles.toolbar}>
        <div role="tablist" aria-label="Terminal tabs" className={styles.tabs}>
          {terminals.map((t, i) => (
            <div key={t.id} className={`${styles.tab} ${t.id === active?.id ? styles.activeTab : ''}`}>
              {renaming?.id === t.id ? (
                <input
                  autoFocus
                  aria-label="Terminal name"
                  className={styles.renameInput}
                  value={renaming.title}
                  maxLength={80}
                  onChange={(e) => setRenaming({ id: t.id, title: e.target.value })}
                  onBlur={rename}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') rename();
                    if (e.key === 'Escape') setRenaming(null);
                  }}
                />
              ) : (
                <button
                  type="button"
                  role="tab"
                  aria-selected={t.id === active?.id}
                  className={styles.tabButton}
                  onClick={() => {
                    opened.current = null;
                    setActiveId(t.id);
                    handles.current.get(t.id)?.focus();
                  }}
                  onDoubleClick={() => canWrite && setRenaming({ id: t.id, title: t.title })}
                  title={canWrite ? `${t.command ?? t.title} (double-click to rename)` : (t.command ?? t.title)}
                >
                  {t.agent ? <span className={styles.agentBadge}>agent</span> : null}
                  {t.title === 'Terminal' ? `Terminal ${i + 1}` : t.title}
                  {t.ended ? <span className={styles.exited}> (ended)</span> : t.id in exited ? <span className={styles.exited}> (exited)</span> : null}
                </button>
              )}
              {canWrite ? (
                <button type="button" className={styles.closeButton} aria-label={`${t.ended ? 'Dismiss' : 'Close'} terminal ${i + 1}`} title={t.ended ? 'Dismiss: forget its saved history' : 'Close'} onClick={() => close(t.id)}>
                  ×
                </button>
              ) : null}
            </div>
          ))}
          {canWrite ? (
            <button type="button" className={styles.newButton} onClick={open} disabled={!socket || connection !== 'live' || atMax} title={atMax ? `At most ${max} terminals per workspace` : 'New terminal'}>
              + New terminal
            </button>
          ) : null}
        </div>
        <form
          role="search"
          className={styles.search}
          onSubmit={(e) => {
            e.preventDefault();
            find(false);
          }}
        >
          <input type="search" aria-label="Find in terminal" placeholder="Find" value={query} onChange={(e) => setQuery(e.target.value)} maxLength={200} />
          <button type="button" onClick={() => find(true)} aria-label="Previous match">
            ↑
          </button>
          <button type="submit" aria-label="Next match">
            ↓
          </button>
        </form>
      </div>
      {!canWrite ? <p className={styles.notice}>Read-only: viewers watch the team&apos;s terminals but cannot type into them.</p> : null}
      {atMax && canWrite ? <p className={styles.notice}>This workspace has {max} terminals open, the most it may; close one to open another.</p> : null}
      {active && previews[active.id]?.length ? (
        <p className={styles.notice} role="status" data-testid="terminal-preview">
          Serving a page in the workspace: {previews[active.id].map((url, i) => (
            <span key={url} className="mono">
              {i ? ', ' : ''}
              {url}
              {canWrite ? (
                <button type="button" className={styles.previewOpen} onClick={() => openInBrowserView(workspaceId, url)}>
                  Open in browser view
                </button>
              ) : null}
            </span>
          ))}
        </p>
      ) : null}
      {notice ? <p className="form-error">{notice}</p> : null}
      {error ? <p className="form-error">{error}</p> : null}
      <div className={styles.screens}>
        {connection === 'reconnecting' ? <div className={styles.overlay}>Reconnecting…</div> : null}
        {socket && terminals.length === 0 && connection === 'live' ? (
          <p className={styles.empty}>{canWrite ? 'No terminals open. Open one with “New terminal”.' : 'No terminals are open in this workspace.'}</p>
        ) : null}
        {socket
          ? terminals.map((t) => (
              <TerminalView
                key={t.id}
                info={t}
                socket={socket}
                generation={generation}
                active={t.id === active?.id}
                canWrite={canWrite}
                onHandle={onHandle}
                onExit={onExit}
                onPreviews={addPreviews}
              />
            ))
          : null}
      </div>
    </section>
  );
}
