import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Socket } from 'socket.io';
import type { ErrorBody, ServerToClientEvents, TerminalAttached, TerminalChange, TerminalInfo } from '@h/contracts';
import { AppConfig } from '@h/config';
import { FileSandboxService } from '@h/files';
import { errorBody } from '@h/http';
import type { SandboxClient, SandboxTerminal } from '@h/sandbox';
import type { PtyChangedNotification, PtyInfo } from '@h/sandbox-protocol';
import { socketBufferedBytes } from '@h/sessions';
import { OutputRing } from './output-ring';
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
}

interface Ws {
  workspaceId: string;
  client: SandboxClient;
  terms: Map<string, Term>;
  /** Sockets of this process that watch the workspace's terminals (list, open or attach). */
  sockets: Map<string, Socket>;
  release: () => void;
  /** Released (no sockets left, or the connection dropped): the next caller connects afresh. */
  dead: boolean;
}

type Emit = <E extends keyof ServerToClientEvents>(socket: Socket, event: E, ...args: Parameters<ServerToClientEvents[E]>) => void;
const emit: Emit = (socket, event, ...args) => void socket.emit(event, ...args);

export function terminalInfo(workspaceId: string, p: PtyInfo): TerminalInfo {
  const m = p.meta ?? {};
  return {
    id: p.ptyId,
    workspaceId,
    title: m.title ?? (m.command ? m.command : 'Terminal'),
    openedBy: m.openedBy ?? null,
    agent: m.agent === true,
    sessionId: m.sessionId ?? null,
    command: m.command ?? null,
    cols: p.cols,
    rows: p.rows,
    createdAt: new Date(p.createdAt ?? Date.now()).toISOString(),
  };
}

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
export class TerminalsHub implements OnModuleDestroy {
  private readonly logger = new Logger(TerminalsHub.name);
  private readonly workspaces = new Map<string, Promise<Ws>>();

  constructor(
    private readonly sandbox: FileSandboxService,
    private readonly config: AppConfig,
  ) {}

  get max(): number {
    return this.config.env.TERMINALS_PER_WORKSPACE_MAX;
  }

  /** The workspace's terminals; the socket hears of changes from now on. */
  async list(workspaceId: string, socket: Socket): Promise<TerminalInfo[]> {
    const ws = await this.watch(workspaceId, socket);
    return this.infos(ws);
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
    if (!t) throw terminalNotFound();
    await this.track(ws, t);
    if (ws.terms.get(terminalId) !== t) throw terminalNotFound(); // ended meanwhile
    // Snapshot and subscription in one synchronous step: nothing between them is lost or sent twice.
    const rest = after === undefined ? null : t.ring.since(after);
    t.sockets.set(socket.id, socket);
    return { terminal: t.info, data: rest ?? t.ring.text, reset: rest === null, end: t.ring.end };
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

  async close(workspaceId: string, terminalId: string): Promise<void> {
    const ws = await this.state(workspaceId);
    await this.known(ws, terminalId);
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
    const ws: Ws = { workspaceId, client, terms: new Map(), sockets: new Map(), release: () => undefined, dead: false };
    const onChanged = (n: PtyChangedNotification) => void this.changed(ws, n);
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

  private infos(ws: Ws): TerminalInfo[] {
    return [...ws.terms.values()].map((t) => t.info).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Re-reads the PTY list from sandboxd (the one source: any process may have opened one). */
  private async refresh(ws: Ws): Promise<void> {
    const list = await ws.client.call('pty.list', {});
    const seen = new Set<string>();
    for (const p of Array.isArray(list) ? list : []) {
      if (typeof p?.ptyId !== 'string') continue;
      seen.add(p.ptyId);
      const info = terminalInfo(ws.workspaceId, p);
      const t = ws.terms.get(p.ptyId);
      if (t) t.info = info;
      else ws.terms.set(p.ptyId, { info, ring: new OutputRing(TERMINAL_SCROLLBACK_CHARS), terminal: null, tracking: null, sockets: new Map() });
    }
    for (const id of [...ws.terms.keys()]) if (!seen.has(id)) this.forget(ws, id);
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
      if (fresh) this.fanOut(ws, t, fresh);
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
      const had = ws.terms.has(n.ptyId);
      this.forget(ws, n.ptyId);
      for (const socket of ws.sockets.values()) {
        emit(socket, 'terminal.exit', {
          workspaceId: ws.workspaceId,
          terminalId: n.ptyId,
          exitCode: typeof n.exitCode === 'number' ? n.exitCode : null,
          signal: typeof n.signal === 'number' ? n.signal : null,
        });
      }
      if (had) this.announce(ws, n.ptyId, 'closed');
      return;
    }
    try {
      await this.refresh(ws);
    } catch (err) {
      this.logger.warn({ err, workspaceId: ws.workspaceId }, 'could not list terminals after one opened');
      return;
    }
    if (ws.terms.has(n.ptyId)) this.announce(ws, n.ptyId, 'opened');
  }

  private announce(ws: Ws, terminalId: string, change: TerminalChange): void {
    const terminals = this.infos(ws);
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
