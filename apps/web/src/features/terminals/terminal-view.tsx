'use client';

import { useEffect, useRef } from 'react';
import type { TerminalAttached, TerminalInfo } from '@h/contracts';
import type { TerminalSocket } from './use-terminal-socket';
import styles from './terminals.module.css';

/** What the panel's search box and tab switching ask of one terminal view. */
export interface TerminalHandle {
  find(term: string, backwards: boolean): boolean;
  focus(): void;
  fit(): void;
}

interface Props {
  info: TerminalInfo;
  socket: TerminalSocket;
  /** Bumped by every (re)authenticated connection: the view re-attaches from its last position. */
  generation: number;
  active: boolean;
  canWrite: boolean;
  onHandle(id: string, handle: TerminalHandle | null): void;
  onExit(id: string, exitCode: number | null): void;
  /** Pages the server found served from this terminal so far (in an attach answer). */
  onPreviews(id: string, urls: string[]): void;
}

const RESIZE_DEBOUNCE_MS = 120;

/**
 * One xterm.js terminal bound to a sandbox PTY. Output is written by position (`end`): an attach
 * after a reconnect asks only for what came after the last position written, and a chunk already
 * written is never written twice. The ack is handled in its callback, which runs before any output
 * event behind it.
 */
export function TerminalView({ info, socket, generation, active, canWrite, onHandle, onExit, onPreviews }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const attach = useRef<() => void>(() => undefined);
  const fitRef = useRef<() => void>(() => undefined);
  const id = info.id;
  const workspaceId = info.workspaceId;

  useEffect(() => {
    let disposed = false;
    let cleanup = () => undefined as void;
    void (async () => {
      // xterm touches the DOM when loaded: only in the browser, after mount.
      const [{ Terminal }, { FitAddon }, { SearchAddon }, { WebLinksAddon }] = await Promise.all([
        import('@xterm/xterm'),
        import('@xterm/addon-fit'),
        import('@xterm/addon-search'),
        import('@xterm/addon-web-links'),
      ]);
      if (disposed || !host.current) return;
      const term = new Terminal({
        // No blink (VS Code's default too): restarting the blink on every key changes the DOM, and
        // Chromium then holds the socket's next message (the echo) until that frame is drawn —
        // 4–9 ms more per keystroke (bench/ide).
        cursorBlink: false,
        disableStdin: !canWrite,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
        fontSize: 13,
        scrollback: 5000,
      });
      const fit = new FitAddon();
      const search = new SearchAddon();
      term.loadAddon(fit);
      term.loadAddon(search);
      term.loadAddon(new WebLinksAddon((_e, uri) => window.open(uri, '_blank', 'noopener,noreferrer')));
      term.open(host.current);
      let end: number | null = null;
      // Its process is gone (exited, or its sandbox stopped): the saved history stays, read-only.
      let ended = Boolean(info.ended);
      let resizeTimer: ReturnType<typeof setTimeout> | undefined;

      const take = (answer: TerminalAttached) => {
        if (answer.reset) term.reset();
        term.write(answer.data);
        end = answer.end;
        if (answer.previews?.length) onPreviews(id, answer.previews);
        if (answer.ended) {
          ended = true;
          const code = answer.ended.exitCode;
          term.write(`\r\n\x1b[2m[ended${code === null ? ' (its sandbox stopped)' : ` with code ${code}`}: saved history, read-only. Open a new terminal beside it.]\x1b[0m\r\n`);
        }
      };
      attach.current = () =>
        socket.emit('terminal.attach', { workspaceId, terminalId: id, ...(end === null ? {} : { after: end }) }, (ack) => {
          if (disposed) return;
          if (ack?.ok) take(ack.data);
          else term.write(`\r\n\x1b[31m[${ack?.error?.message ?? 'could not attach this terminal'}]\x1b[0m\r\n`);
        });
      const onOutput = (e: { terminalId: string; data: string; end: number }) => {
        if (e.terminalId !== id || end === null || e.end <= end) return;
        // Only the part after what is on screen (a chunk can overlap an attach answer).
        term.write(e.data.slice(Math.max(0, e.data.length - (e.end - end))));
        end = e.end;
      };
      const onError = (e: { terminalId?: string; error: { code: string } }) => {
        if (e.terminalId === id && e.error.code === 'SLOW_CONSUMER') attach.current();
      };
      const onExitEvent = (e: { terminalId: string; exitCode: number | null }) => {
        if (e.terminalId !== id) return;
        ended = true;
        term.write(`\r\n\x1b[2m[process exited${e.exitCode === null ? '' : ` with code ${e.exitCode}`}]\x1b[0m\r\n`);
        onExit(id, e.exitCode);
      };
      socket.on('terminal.output', onOutput);
      socket.on('terminal.error', onError);
      socket.on('terminal.exit', onExitEvent);
      const input = term.onData((data) => {
        if (canWrite && !ended) socket.emit('terminal.input', { workspaceId, terminalId: id, data }, () => undefined);
      });

      fitRef.current = () => {
        if (!host.current || host.current.offsetParent === null) return; // hidden tab: nothing to measure
        const before = `${term.cols}x${term.rows}`;
        fit.fit();
        if (!canWrite || ended || `${term.cols}x${term.rows}` === before) return;
        clearTimeout(resizeTimer);
        resizeTimer = setTimeout(() => socket.emit('terminal.resize', { workspaceId, terminalId: id, cols: term.cols, rows: term.rows }, () => undefined), RESIZE_DEBOUNCE_MS);
      };
      const observer = new ResizeObserver(() => fitRef.current());
      observer.observe(host.current);
      fitRef.current();
      attach.current();
      onHandle(id, {
        find: (q, backwards) => (backwards ? search.findPrevious(q) : search.findNext(q)),
        focus: () => term.focus(),
        fit: () => fitRef.current(),
      });
      cleanup = () => {
        observer.disconnect();
        clearTimeout(resizeTimer);
        input.dispose();
        socket.off('terminal.output', onOutput);
        socket.off('terminal.error', onError);
        socket.off('terminal.exit', onExitEvent);
        socket.emit('terminal.detach', { workspaceId, terminalId: id }, () => undefined);
        onHandle(id, null);
        term.dispose();
      };
    })();
    return () => {
      disposed = true;
      cleanup();
    };
    // The view lives as long as its terminal and socket; the role (canWrite) is the page's, fixed.
  }, [id, socket]);

  // A new connection (reconnect): attach again from the last position written.
  useEffect(() => {
    if (generation > 1) attach.current();
  }, [generation]);

  useEffect(() => {
    if (active) fitRef.current();
  }, [active]);

  return <div ref={host} className={styles.screen} hidden={!active} data-terminal-id={id} aria-label={`Terminal ${info.title}`} />;
}
