import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { type ErrorBody, type ServerToClientEvents, type TerminalAttached, type TerminalChange, type TerminalInfo } from '@h/contracts';
import { AppConfig } from '@h/config';
import { FileSandboxService } from '@h/files';
import { errorBody } from '@h/http';
import type { SandboxClient, SandboxTerminal } from '@h/sandbox';
import type { PtyChangedNotification } from '@h/sandbox-protocol';
import { socketBufferedBytes } from '@h/sessions';
import { OutputRing } from './output-ring';
import { TerminalHistory } from './terminal-history';
import { TerminalPreviews } from './terminal-previews';
import { terminalInfo } from './terminal-info';
import { fromTerminalError, terminalNotFound } from './terminals.exception';

/** Output kept per terminal for reattaching clients: as much as sandboxd's own scrollback. */
export const TERMINAL_SCROLLBACK_CHARS = 64 * 1024;

interface Term {
  info: TerminalInfo;
  ring: OutputRing;
  /** This process's attachment to the PTY; null until a socket attaches. */
  terminal: SandboxTerminal | null;
  tracking: Promise<void> | null;
  /** Sockets of this process that get the output. */
  sockets: Map<string, Socket>;
  /** Servers this terminal's output announced (terminal-previews.ts). */
  previews: TerminalPreviews;
}

interface Ws {
  workspaceId: string;
  client: SandboxClient;
  terms: Map<string, Term>;
  /**
   * PTYs sandboxd reported closed. A `pty.list` answered just before the close (a refresh for an
   * attach or open in flight) still names the PTY; without this it would come back as live and
   * be announced to every IDE. PTY ids are never reused.
   */
  closed: Set<string>;
  /** Sockets of this process that watch the workspace's terminals (list, open or attach). */
  sockets: Map<string, Socket>;
  release: () => void;
  /** Released (no sockets left, or the connection dropped): the next caller connects afresh. */
  dead: boolean;
  /**
   * Changes of this workspace's terminals, handled one at a time in the order sandboxd sent them:
   * each handler awaits (a refresh, the history in Redis) before it announces, and a list computed
   * for an earlier change must never reach the IDEs after a later one's.
   */
  queue: Promise<void>;
}

type Emit = <E extends keyof ServerToClientEvents>(socket: Socket, event: E, ...args: Parameters<ServerToClientEvents[E]>) => void;
const emit: Emit = (socket, event, ...args) => void socket.emit(event, ...args);

/**
 * The terminals of this api process: one sandbox connection per workspace (the file API's, through
 * FileSandboxService) attached to the PTYs its sockets watch, each terminal's recent output kept
 * by position (OutputRing) and fanned out to those sockets directly, never through the Redis
 * adapter: every api process attaches for its own clients, PTY ids come from sandboxd, and
 * sandboxd tells every connection when a terminal opens or ends (`pty.changed`). The api acks
 * output to sandboxd as it arrives, so a slow browser never pauses the PTY: a socket more than
 * STREAM_CLIENT_BUFFER_BYTES behind stops getting output (`terminal.error` SLOW_CONSUMER) and
 * re-attaches from where it stopped.
 */
@Injectable()
export class TerminalsHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TerminalsHub.name);
  private readonly workspaces = new Map<string, Promise<Ws>>();
  private stopDismissed: (() => void) | null = null;

  constructor(
    private readonly sandbox: FileSandboxService,
    private readonly config: AppConfig,
    private readonly history: TerminalHistory,
  ) {}

  async onModuleInit(): Promise<void> {
    // An ended terminal dismissed through any api process leaves every IDE's list. A live one
    // being closed is dismissed first too (so its end is not kept), but it leaves the list when
    // sandboxd reports it closed: announced now, the list would still name it as live.
    this.stopDismissed = await this.history.onDismissed(({ workspaceId, terminalId }) => {
      void this.peek(workspaceId)?.then((ws) =>
        ws && !ws.dead ? this.serial(ws, async () => (ws.terms.has(terminalId) ? undefined : this.announce(ws, terminalId, 'closed'))) : undefined,
      );
    });
  }

  get max(): number {
    return this.config.env.TERMINALS_PER_WORKSPACE_MAX;
  }

  /** The workspace's terminals, ended ones with saved history after the live; the socket hears of changes from now on. */
  async list(workspaceId: string, socket: Socket): Promise<TerminalInfo[]> {
    const ws = await this.watch(workspaceId, socket);
    return this.withEnded(ws);
  }

  async open(workspaceId: string, socket: Socket, req: { cols: number; rows: number; cwd?: string; openedBy: string }): Promise<TerminalAttached> {
    const ws = await this.watch(workspaceId, socket);
    let ptyId: string;
    try {
      ({ ptyId } = await ws.client.call('pty.open', {
        cols: req.cols,
        rows: req.rows,
        cwd: req.cwd,
        keepAlive: true,
        maxCount: this.max,
        meta: { title: 'Terminal', openedBy: req.openedBy },
      }));
    } catch (err) {
      throw fromTerminalError(err, this.max);
    }
    // The opening connection is attached already; attaching again returns the scrollback with its position.
    await this.refresh(ws);
    return this.attach(workspaceId, ptyId, socket);
  }

  /** Idempotent: the same PTY and one output stream per socket; `after` skips what the client has. */
  async attach(workspaceId: string, terminalId: string, socket: Socket, after?: number): Promise<TerminalAttached> {
    const ws = await this.watch(workspaceId, socket);
    let t = ws.terms.get(terminalId);
    if (!t) {
      await this.refresh(ws);
      t = ws.terms.get(terminalId);
    }
    if (!t) {
      // Its process is gone: its saved output, read-only, when the server kept it.
      const ended = await this.history.attachEnded(workspaceId, terminalId);
      if (ended) return ended;
      throw terminalNotFound();
    }
    await this.track(ws, t);
    if (ws.terms.get(terminalId) !== t) throw terminalNotFound(); // ended meanwhile
    // Snapshot and subscription in one synchronous step: nothing between them is lost or sent twice.
    const rest = after === undefined ? null : t.ring.since(after);
    t.sockets.set(socket.id, socket);
    return { terminal: t.info, data: rest ?? t.ring.text, reset: rest === null, end: t.ring.end, ...(t.previews.urls.length ? { previews: [...t.previews.urls] } : {}) };
  }

  detach(workspaceId: string, terminalId: string, socketId: string): void {
    void this.peek(workspaceId)?.then((ws) => ws?.terms.get(terminalId)?.sockets.delete(socketId));
  }

  async input(workspaceId: string, terminalId: string, data: string): Promise<void> {
    const ws = await this.state(workspaceId);
    const t = await this.known(ws, terminalId);
    ws.client.writeTerminal(t.info.id, data);
  }

  async resize(workspaceId: string, terminalId: string, cols: number, rows: number): Promise<void> {
    const ws = await this.state(workspaceId);
    const t = await this.known(ws, terminalId);
    await ws.client.call('pty.resize', { ptyId: terminalId, cols, rows }).catch((err) => {
      throw fromTerminalError(err, this.max);
    });
    t.info = { ...t.info, cols, rows };
  }

  async rename(workspaceId: string, terminalId: string, title: string): Promise<TerminalInfo> {
    const ws = await this.state(workspaceId);
    const t = await this.known(ws, terminalId);
    await ws.client.call('pty.rename', { ptyId: terminalId, title }).catch((err) => {
      throw fromTerminalError(err, this.max);
    });
    t.info = { ...t.info, title };
    return t.info;
  }

  /** Closes a live terminal, or dismisses an ended one (its saved history goes); either way for good. */
  async close(workspaceId: string, terminalId: string): Promise<void> {
    const ws = await this.state(workspaceId);
    const live = await this.known(ws, terminalId).catch(async (err: unknown) => {
      if (!(await this.history.dismiss(workspaceId, terminalId))) throw err;
      return null;
    });
    if (!live) return; // every process announces it (onDismissed)
    await this.history.dismiss(workspaceId, terminalId);
    await ws.client.call('pty.close', { ptyId: terminalId }).catch((err) => {
      throw fromTerminalError(err, this.max);
    });
  }

  /** The socket stops watching the workspace (unsubscribed, access lost, or gone). */
  leave(workspaceId: string, socketId: string): void {
    void this.peek(workspaceId)?.then((ws) => {
      if (!ws) return;
      ws.sockets.delete(socketId);
      for (const t of ws.terms.values()) t.sockets.delete(socketId);
      if (ws.sockets.size === 0) this.drop(ws);
    });
  }

  onModuleDestroy(): void {
    this.stopDismissed?.();
    for (const p of this.workspaces.values()) void p.then((ws) => ws.release()).catch(() => undefined);
    this.workspaces.clear();
  }

  private peek(workspaceId: string): Promise<Ws | null> | undefined {
    return this.workspaces.get(workspaceId)?.catch(() => null);
  }

  private async watch(workspaceId: string, socket: Socket): Promise<Ws> {
    const ws = await this.state(workspaceId);
    ws.sockets.set(socket.id, socket);
    return ws;
  }

  /** This process's state for the workspace, on a live connection (a dropped one is replaced). */
  private async state(workspaceId: string): Promise<Ws> {
    const cached = this.workspaces.get(workspaceId);
    if (cached) {
      const ws = await cached.catch(() => null);
      if (ws && !ws.dead && !ws.client.closed) return ws;
      if (this.workspaces.get(workspaceId) === cached) this.workspaces.delete(workspaceId);
    }
    const p = this.connect(workspaceId);
    this.workspaces.set(workspaceId, p);
    try {
      return await p;
    } catch (err) {
      if (this.workspaces.get(workspaceId) === p) this.workspaces.delete(workspaceId);
      throw err;
    }
  }

  private async connect(workspaceId: string): Promise<Ws> {
    const client = await this.sandbox.client(workspaceId);
    const ws: Ws = { workspaceId, client, terms: new Map(), closed: new Set(), sockets: new Map(), release: () => undefined, dead: false, queue: Promise.resolve() };
    const onChanged = (n: PtyChangedNotification) => void this.serial(ws, () => this.changed(ws, n));
    const onClose = () => this.lost(ws);
    client.on('pty.changed', onChanged);
    client.once('close', onClose);
    ws.release = () => {
      client.off('pty.changed', onChanged);
      client.off('close', onClose);
    };
    try {
      await this.refresh(ws);
    } catch (err) {
      ws.release();
      throw fromTerminalError(err, this.max);
    }
    return ws;
  }

  private serial(ws: Ws, fn: () => Promise<void>): Promise<void> {
    ws.queue = ws.queue.then(fn).catch((err: unknown) => this.logger.warn({ err, workspaceId: ws.workspaceId }, 'terminal change not handled'));
    return ws.queue;
  }

  private infos(ws: Ws): TerminalInfo[] {
    return [...ws.terms.values()].map((t) => t.info).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** The live terminals, then the ended ones whose history is kept (oldest first). */
  private async withEnded(ws: Ws): Promise<TerminalInfo[]> {
    const ended = await this.history.endedBeside(
      ws.workspaceId,
      (id) => ws.terms.has(id),
      () => this.refresh(ws).catch(() => undefined),
    );
    return [...this.infos(ws), ...ended.sort((a, b) => a.createdAt.localeCompare(b.createdAt))];
  }

  /** Re-reads the PTY list from sandboxd (the one source: any process may have opened one). */
  private async refresh(ws: Ws): Promise<void> {
    const list = await ws.client.call('pty.list', {});
    const seen = new Set<string>();
    for (const p of Array.isArray(list) ? list : []) {
      if (typeof p?.ptyId !== 'string' || ws.closed.has(p.ptyId)) continue;
      seen.add(p.ptyId);
      const info = terminalInfo(ws.workspaceId, p);
      const t = ws.terms.get(p.ptyId);
      if (t) t.info = info;
      else ws.terms.set(p.ptyId, this.term(ws, info));
    }
    for (const id of [...ws.terms.keys()]) if (!seen.has(id)) this.forget(ws, id);
  }

  private term(ws: Ws, info: TerminalInfo): Term {
    const previews = new TerminalPreviews(
      async (command, timeoutMs) => (await ws.client.call('exec.run', { command, timeoutMs, maxOutputBytes: 4096 })).stdout,
      () => !ws.dead && ws.terms.get(info.id) === t,
      (url) => {
        for (const socket of ws.sockets.values()) emit(socket, 'terminal.preview', { workspaceId: ws.workspaceId, terminalId: info.id, url });
      },
      (err) => this.logger.debug({ err, workspaceId: ws.workspaceId }, 'preview check failed'),
    );
    const t: Term = { info, ring: new OutputRing(TERMINAL_SCROLLBACK_CHARS), terminal: null, tracking: null, sockets: new Map(), previews };
    return t;
  }

  private async known(ws: Ws, terminalId: string): Promise<Term> {
    let t = ws.terms.get(terminalId);
    if (!t) {
      await this.refresh(ws);
      t = ws.terms.get(terminalId);
    }
    if (!t) throw terminalNotFound();
    return t;
  }

  /** Attaches this process's connection to the PTY once; output from then on lands in the ring. */
  private track(ws: Ws, t: Term): Promise<void> {
    if (t.terminal && !t.terminal.exited) return Promise.resolve();
    t.tracking ??= (async () => {
      try {
        // attachTerminal registers the terminal before it sends the request: the listener goes on
        // first, so chunks processed ahead of the answer are kept and merged by position.
        const pending = ws.client.attachTerminal(t.info.id);
        const terminal = ws.client.terminal(t.info.id);
        if (terminal && t.terminal !== terminal) this.listen(ws, t, terminal);
        const { scrollback, end } = await pending;
        t.ring.merge(scrollback, end);
        this.history.write(t.info, t.ring.text, t.ring.end);
        // What was printed before this process attached (a server started before an api restart).
        t.previews.scan(scrollback);
      } catch (err) {
        throw fromTerminalError(err, this.max);
      } finally {
        t.tracking = null;
      }
    })();
    return t.tracking;
  }

  private listen(ws: Ws, t: Term, terminal: SandboxTerminal): void {
    t.terminal = terminal;
    terminal.on('data', (data, end) => {
      if (ws.terms.get(t.info.id) !== t) return;
      const fresh = t.ring.append(data, end);
      if (fresh) {
        this.history.write(t.info, fresh, t.ring.end);
        this.fanOut(ws, t, fresh);
        t.previews.scan(fresh);
      }
    });
  }

  private fanOut(ws: Ws, t: Term, data: string): void {
    const limit = this.config.env.STREAM_CLIENT_BUFFER_BYTES;
    for (const [id, socket] of t.sockets) {
      if (!socket.connected) {
        t.sockets.delete(id);
        continue;
      }
      if (socketBufferedBytes(socket) > limit) {
        // Cut this client only; the PTY and everyone else go on. It re-attaches with `after`.
        t.sockets.delete(id);
        emit(socket, 'terminal.error', {
          workspaceId: ws.workspaceId,
          terminalId: t.info.id,
          ...errorBody('SLOW_CONSUMER', `More than ${limit} bytes of terminal output were waiting for this client (STREAM_CLIENT_BUFFER_BYTES); re-attach to continue.`),
        });
        continue;
      }
      emit(socket, 'terminal.output', { workspaceId: ws.workspaceId, terminalId: t.info.id, data, end: t.ring.end });
    }
  }

  private async changed(ws: Ws, n: PtyChangedNotification): Promise<void> {
    if (n.change === 'closed') {
      ws.closed.add(n.ptyId);
      const t = ws.terms.get(n.ptyId);
      this.forget(ws, n.ptyId);
      const exitCode = typeof n.exitCode === 'number' ? n.exitCode : null;
      const signal = typeof n.signal === 'number' ? n.signal : null;
      for (const socket of ws.sockets.values()) emit(socket, 'terminal.exit', { workspaceId: ws.workspaceId, terminalId: n.ptyId, exitCode, signal });
      if (!t) return;
      // Kept as ended with its output (a dismissed one excepted), then everyone hears the new list.
      await this.history.ended(t.info, exitCode, signal);
      await this.announce(ws, n.ptyId, 'closed');
      return;
    }
    try {
      await this.refresh(ws);
    } catch (err) {
      this.logger.warn({ err, workspaceId: ws.workspaceId }, 'could not list terminals after one opened');
      return;
    }
    if (ws.terms.has(n.ptyId)) await this.announce(ws, n.ptyId, n.change === 'renamed' ? 'renamed' : 'opened');
  }

  private async announce(ws: Ws, terminalId: string, change: TerminalChange): Promise<void> {
    const terminals = await this.withEnded(ws);
    for (const socket of ws.sockets.values()) emit(socket, 'terminal.changed', { workspaceId: ws.workspaceId, terminalId, change, terminals });
  }

  private forget(ws: Ws, terminalId: string): void {
    const t = ws.terms.get(terminalId);
    if (!t) return;
    ws.terms.delete(terminalId);
    t.terminal?.removeAllListeners('data');
    t.sockets.clear();
  }

  /** The sandbox connection dropped (restart, idle stop): clients list and attach again. */
  private lost(ws: Ws): void {
    ws.dead = true;
    ws.release();
    const body: ErrorBody = errorBody('SANDBOX_UNAVAILABLE', 'The connection to the workspace sandbox dropped; list and attach the terminals again.');
    for (const socket of ws.sockets.values()) emit(socket, 'terminal.error', { workspaceId: ws.workspaceId, ...body });
  }

  private drop(ws: Ws): void {
    ws.dead = true;
    ws.release();
    if (!ws.client.closed) {
      for (const t of ws.terms.values()) if (t.terminal && !t.terminal.exited) void t.terminal.detach().catch(() => undefined);
    }
    for (const id of [...ws.terms.keys()]) this.forget(ws, id);
  }
}
