'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { BROWSER_DEFAULT_VIEWPORT, BROWSER_TABS_MAX } from '@h/contracts/browser-view';
import type { BrowserInput, BrowserState } from '@h/contracts';
import { onBrowserOpen } from './browser-open';
import { BrowserScreen, type BrowserScreenHandle } from './browser-screen';
import { normalizeAddress } from './browser-view-state';
import { useBrowserSocket } from './use-browser-socket';
import styles from './browser.module.css';

/**
 * The workspace's browser: the sandbox's Chromium as a live screencast, shared by the team and the
 * agent's browser sub-agent (its actions show over the page). Viewers watch; members navigate, use
 * tabs and history, click and type.
 */
export function BrowserPanel({ workspaceId, canWrite }: { workspaceId: string; canWrite: boolean }) {
  const screen = useRef<BrowserScreenHandle | null>(null);
  const { socket, connection, state, error, userId } = useBrowserSocket(workspaceId, {
    onFrame: (f) => screen.current?.frame(f),
    onAction: (a) => screen.current?.action(a),
  });
  const [shown, setShown] = useState<BrowserState | null>(null);
  const [address, setAddress] = useState('');
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const waiting = useRef<string | null>(null);

  // An ack's state is as fresh as `browser.state`; whichever came last is shown.
  useEffect(() => setShown(state), [state]);
  const active = shown?.tabs.find((t) => t.id === shown.activeTabId) ?? null;
  useEffect(() => {
    if (!editing) setAddress(active?.url ?? '');
  }, [active?.url, editing]);

  const answer = useCallback((what: string) => (ack: { ok: true; data: BrowserState } | { ok: false; error: { message: string } }) => {
    if (ack?.ok) {
      setShown(ack.data);
      setNotice(null);
    } else setNotice(ack?.error?.message ?? `Could not ${what}.`);
  }, []);

  const navigate = useCallback(
    (url: string) => {
      if (!socket || connection !== 'live') {
        waiting.current = url;
        return;
      }
      socket.emit('browser.navigate', { workspaceId, url }, answer('open the page'));
    },
    [socket, connection, workspaceId, answer],
  );
  useEffect(() => {
    if (connection === 'live' && waiting.current) {
      const url = waiting.current;
      waiting.current = null;
      navigate(url);
    }
  }, [connection, navigate]);
  useEffect(() => onBrowserOpen(workspaceId, (id, url) => id === workspaceId && canWrite && navigate(url)), [workspaceId, canWrite, navigate]);

  const submit = () => {
    const url = normalizeAddress(address);
    if (!url) return setNotice('Type an http:// or https:// address.');
    setEditing(false);
    navigate(url);
  };
  const history = (action: 'back' | 'forward' | 'reload') => socket?.emit('browser.history', { workspaceId, action }, answer(action));
  const tab = (action: 'open' | 'close' | 'activate', tabId?: string) => socket?.emit('browser.tab', { workspaceId, action, ...(tabId ? { tabId } : {}) }, answer(`${action} the tab`));
  const send = useCallback(
    (input: BrowserInput) =>
      socket?.emit('browser.input', { workspaceId, input }, (ack) => {
        if (!ack?.ok && ack?.error?.code !== 'RATE_LIMITED') setNotice(ack?.error?.message ?? 'Input was not delivered.');
      }),
    [socket, workspaceId],
  );

  const live = connection === 'live';
  const tabs = shown?.tabs ?? [];
  return (
    <section className={styles.panel} aria-label="Browser">
      <div role="tablist" aria-label="Browser tabs" className={styles.tabs}>
        {tabs.map((t) => (
          <div key={t.id} className={`${styles.tab} ${t.id === active?.id ? styles.activeTab : ''}`}>
            <button type="button" role="tab" aria-selected={t.id === active?.id} className={styles.tabButton} title={t.url} onClick={() => canWrite && t.id !== active?.id && tab('activate', t.id)}>
              {t.loading ? '◌ ' : ''}
              {t.title || t.url || 'New tab'}
            </button>
            {canWrite ? (
              <button type="button" className={styles.closeButton} aria-label={`Close tab ${t.title || t.url}`} onClick={() => tab('close', t.id)}>
                ×
              </button>
            ) : null}
          </div>
        ))}
        {canWrite ? (
          <button type="button" className={styles.newTab} aria-label="New tab" disabled={!live || tabs.length >= BROWSER_TABS_MAX} onClick={() => tab('open')}>
            +
          </button>
        ) : null}
      </div>
      <form
        className={styles.toolbar}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <button type="button" aria-label="Back" disabled={!canWrite || !live || !active?.canGoBack} onClick={() => history('back')}>
          ←
        </button>
        <button type="button" aria-label="Forward" disabled={!canWrite || !live || !active?.canGoForward} onClick={() => history('forward')}>
          →
        </button>
        <button type="button" aria-label="Reload" disabled={!canWrite || !live || !active} onClick={() => history('reload')}>
          ⟳
        </button>
        <input
          aria-label="Address"
          className={styles.address}
          value={address}
          readOnly={!canWrite}
          placeholder={canWrite ? 'Type a URL, e.g. localhost:3000' : 'No page open'}
          maxLength={4096}
          spellCheck={false}
          onFocus={() => setEditing(true)}
          onBlur={() => setEditing(false)}
          onChange={(e) => setAddress(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setAddress(active?.url ?? '');
              (e.target as HTMLInputElement).blur();
            }
          }}
        />
      </form>
      {!canWrite ? <p className={styles.notice}>Read-only: viewers watch the workspace&apos;s browser but cannot use it.</p> : null}
      {notice ? <p className="form-error">{notice}</p> : null}
      {error ? <p className="form-error">{error}</p> : null}
      <div className={styles.body}>
        {connection === 'reconnecting' ? <div className={styles.overlay}>Reconnecting…</div> : null}
        {live && !active ? <p className={styles.empty}>{canWrite ? 'No page open — type a URL' : 'No page open'}</p> : null}
        <BrowserScreen ref={screen} viewport={shown?.viewport ?? BROWSER_DEFAULT_VIEWPORT} canWrite={canWrite && live && !!active} userId={userId} send={send} />
      </div>
    </section>
  );
}
