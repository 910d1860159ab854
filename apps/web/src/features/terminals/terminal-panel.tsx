'use client';

import '@xterm/xterm/css/xterm.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { TerminalView, type TerminalHandle } from './terminal-view';
import { useTerminalSocket } from './use-terminal-socket';
import styles from './terminals.module.css';

/**
 * The IDE's terminals: one tab per PTY of the workspace, shared by the whole team (a teammate's or
 * the agent's terminal shows up here live). Viewers watch; members open, type, resize and close.
 */
export function TerminalPanel({ workspaceId, canWrite }: { workspaceId: string; canWrite: boolean }) {
  const { socket, connection, terminals, max, error, generation } = useTerminalSocket(workspaceId);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [exited, setExited] = useState<Record<string, number | null>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const handles = useRef(new Map<string, TerminalHandle>());

  const active = terminals.find((t) => t.id === activeId) ?? terminals[terminals.length - 1] ?? null;
  useEffect(() => {
    if (active && active.id !== activeId) setActiveId(active.id);
  }, [active, activeId]);

  const onHandle = useCallback((id: string, h: TerminalHandle | null) => {
    if (h) handles.current.set(id, h);
    else handles.current.delete(id);
  }, []);
  const onExit = useCallback((id: string, code: number | null) => setExited((prev) => ({ ...prev, [id]: code })), []);

  const open = () => {
    if (!socket) return;
    setNotice(null);
    // Sized like the visible terminal when there is one; the view fits itself right after.
    socket.emit('terminal.open', { workspaceId, cols: 80, rows: 24 }, (ack) => {
      if (ack?.ok) setActiveId(ack.data.terminal.id);
      else setNotice(ack?.error?.message ?? 'Could not open a terminal.');
    });
  };
  const close = (id: string) => {
    socket?.emit('terminal.close', { workspaceId, terminalId: id }, (ack) => {
      if (!ack?.ok) setNotice(ack?.error?.message ?? 'Could not close the terminal.');
    });
  };
  const find = (backwards: boolean) => {
    if (active && query) handles.current.get(active.id)?.find(query, backwards);
  };

  const atMax = max > 0 && terminals.length >= max;
  return (
    <section className={styles.panel} aria-label="Terminals">
      <div className={styles.toolbar}>
        <div role="tablist" aria-label="Terminal tabs" className={styles.tabs}>
          {terminals.map((t, i) => (
            <div key={t.id} className={`${styles.tab} ${t.id === active?.id ? styles.activeTab : ''}`}>
              <button
                type="button"
                role="tab"
                aria-selected={t.id === active?.id}
                className={styles.tabButton}
                onClick={() => {
                  setActiveId(t.id);
                  handles.current.get(t.id)?.focus();
                }}
                title={t.command ?? t.title}
              >
                {t.agent ? <span className={styles.agentBadge}>agent</span> : null}
                {t.agent && t.command ? t.command : `${t.title} ${i + 1}`}
                {t.id in exited ? <span className={styles.exited}> (exited)</span> : null}
              </button>
              {canWrite ? (
                <button type="button" className={styles.closeButton} aria-label={`Close terminal ${i + 1}`} onClick={() => close(t.id)}>
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
      {notice ? <p className="form-error">{notice}</p> : null}
      {error ? <p className="form-error">{error}</p> : null}
      <div className={styles.screens}>
        {connection === 'reconnecting' ? <div className={styles.overlay}>Reconnecting…</div> : null}
        {socket && terminals.length === 0 && connection === 'live' ? (
          <p className={styles.empty}>{canWrite ? 'No terminals yet. Open one with “New terminal”.' : 'No terminals are open in this workspace.'}</p>
        ) : null}
        {socket
          ? terminals.map((t) => (
              <TerminalView key={t.id} info={t} socket={socket} generation={generation} active={t.id === active?.id} canWrite={canWrite} onHandle={onHandle} onExit={onExit} />
            ))
          : null}
      </div>
    </section>
  );
}
