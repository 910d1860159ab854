import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { IPty } from 'node-pty';
import {
  PTY_HIGH_WATER_BYTES,
  PTY_LOW_WATER_BYTES,
  type PtyAttachResult,
  type PtyOpenParams,
  type PtyChangedNotification,
  type PtyInfo,
  type PtyMeta,
  type PtyOpenResult,
  type RpcPeer,
} from '@h/sandbox-protocol';
import { fail } from './errors';
import type { PathResolver } from './path-resolver';
import { killProcessGroup, sanitizedEnv, withRaisedOomScore } from './process-utils';

const SCROLLBACK_CHARS = 64 * 1024;
const META_MAX_CHARS = 256;
/** How long an exited shell's terminal is read for its last output before it is closed anyway. */
const PTY_EXIT_DRAIN_MS = 1000;

interface PtySession {
  id: string;
  proc: IPty;
  keepAlive: boolean;
  /** Attached connections and how many output chars each has not acknowledged yet. */
  peers: Map<RpcPeer, number>;
  meta: PtyMeta;
  createdAt: number;
  /** Chars printed in all (the position after the last output). */
  end: number;
  scrollback: string;
  pending: string;
  flushScheduled: boolean;
  paused: boolean;
  /** The shell has exited; what it printed last is being read (flow control no longer pauses). */
  draining: boolean;
}

// node-pty is native; loaded lazily so fs/exec keep working (and the unit tests run) without it.
type NodePty = typeof import('node-pty');
let nodePty: NodePty | null = null;
function loadPty(): NodePty {
  nodePty ??= require('node-pty') as NodePty;
  return nodePty;
}

export class PtyService {
  private readonly sessions = new Map<string, PtySession>();
  /** When any terminal last printed something (a running build counts as use). */
  lastOutputAt = 0;

  /** @param broadcast tells every connection (not only attached ones) that the list of terminals changed */
  constructor(
    private readonly paths: PathResolver,
    private readonly broadcast: (n: PtyChangedNotification) => void = () => undefined,
  ) {}

  get count(): number {
    return this.sessions.size;
  }

  async open(p: PtyOpenParams, peer: RpcPeer): Promise<PtyOpenResult> {
    const cwd = await this.paths.resolve(p.cwd || '.');
    const st = await stat(cwd.abs).catch(() => null);
    if (!st?.isDirectory()) fail('NOT_DIRECTORY', `${p.cwd ?? '.'}: not a directory`);
    if (typeof p.maxCount === 'number' && this.sessions.size >= p.maxCount) {
      fail('TOO_MANY_PTYS', `${this.sessions.size} terminals are open already (at most ${p.maxCount}); close one first`);
    }
    const shell = p.command ?? (existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh');
    const [file, ...args] = withRaisedOomScore([shell, ...(p.args ?? [])]);
    const env = { ...sanitizedEnv(p.env), TERM: 'xterm-256color', COLORTERM: 'truecolor' };
    let proc: IPty;
    try {
      proc = loadPty().spawn(file, args, {
        name: 'xterm-256color',
        cols: clampInt(p.cols, 80, 1, 1000),
        rows: clampInt(p.rows, 24, 1, 1000),
        cwd: cwd.abs,
        env,
      });
    } catch (e) {
      fail('IO_ERROR', `cannot open a terminal: ${e instanceof Error ? e.message : String(e)}`);
    }
    const s: PtySession = {
      id: randomUUID(),
      proc,
      keepAlive: !!p.keepAlive,
      peers: new Map([[peer, 0]]),
      meta: cleanMeta(p.meta),
      createdAt: Date.now(),
      end: 0,
      scrollback: '',
      pending: '',
      flushScheduled: false,
      paused: false,
      draining: false,
    };
    readToEndOnExit(proc, () => {
      s.draining = true;
      s.paused = false;
    });
    this.sessions.set(s.id, s);
    proc.onData((data) => this.onOutput(s, data));
    proc.onExit(({ exitCode, signal }) => {
      this.flush(s);
      for (const peer of s.peers.keys()) peer.notify('pty.exit', { ptyId: s.id, exitCode, signal: signal ?? null });
      this.sessions.delete(s.id);
      void killProcessGroup(proc.pid, 20);
      this.broadcast({ ptyId: s.id, change: 'closed', exitCode, signal: signal ?? null });
    });
    this.broadcast({ ptyId: s.id, change: 'opened' });
    return { ptyId: s.id, pid: proc.pid };
  }

  list(): PtyInfo[] {
    return [...this.sessions.values()].map((s) => ({
      ptyId: s.id,
      pid: s.proc.pid,
      cols: s.proc.cols,
      rows: s.proc.rows,
      keepAlive: s.keepAlive,
      attached: s.peers.size,
      meta: s.meta,
      createdAt: s.createdAt,
    }));
  }

  attach(p: { ptyId: string }, peer: RpcPeer): PtyAttachResult {
    const s = this.get(p.ptyId);
    if (!s.peers.has(peer)) s.peers.set(peer, 0);
    return { scrollback: s.scrollback, end: s.end };
  }

  rename(p: { ptyId: string; title: string }): null {
    if (typeof p.title !== 'string') fail('INVALID_ARGUMENT', 'title must be a string');
    const s = this.get(p.ptyId);
    s.meta = { ...s.meta, title: p.title.slice(0, META_MAX_CHARS) };
    this.broadcast({ ptyId: s.id, change: 'renamed' });
    return null;
  }

  detach(p: { ptyId: string }, peer: RpcPeer): null {
    const s = this.get(p.ptyId);
    if (s.peers.delete(peer)) {
      if (s.peers.size === 0 && !s.keepAlive) this.kill(s);
      else this.updateFlow(s);
    }
    return null;
  }

  write(p: { ptyId: string; data: string }): null {
    if (typeof p.data !== 'string') fail('INVALID_ARGUMENT', 'data must be a string');
    this.get(p.ptyId).proc.write(p.data);
    return null;
  }

  resize(p: { ptyId: string; cols: number; rows: number }): null {
    this.get(p.ptyId).proc.resize(clampInt(p.cols, 80, 1, 1000), clampInt(p.rows, 24, 1, 1000));
    return null;
  }

  close(p: { ptyId: string }): null {
    this.kill(this.get(p.ptyId));
    return null;
  }

  ack(p: { ptyId: string; bytes: number }, peer: RpcPeer): void {
    const s = this.sessions.get(p?.ptyId);
    const unacked = s?.peers.get(peer);
    if (!s || unacked === undefined) return;
    s.peers.set(peer, Math.max(0, unacked - (Number(p.bytes) || 0)));
    this.updateFlow(s);
  }

  /** A connection went away: detach it everywhere; terminals nobody keeps alive are closed. */
  detachAll(peer: RpcPeer): void {
    for (const s of this.sessions.values()) {
      if (!s.peers.delete(peer)) continue;
      if (s.peers.size === 0 && !s.keepAlive) this.kill(s);
      else this.updateFlow(s);
    }
  }

  closeAll(): void {
    for (const s of this.sessions.values()) this.kill(s);
  }

  private get(id: string): PtySession {
    const s = this.sessions.get(id);
    if (!s) fail('NO_SUCH_PTY', `no terminal ${id}`);
    return s;
  }

  private kill(s: PtySession): void {
    try {
      s.proc.kill('SIGHUP');
    } catch {
      // already gone
    }
    // The shell's children share its session/group; take them down too.
    void killProcessGroup(s.proc.pid, 20);
  }

  private onOutput(s: PtySession, data: string): void {
    this.lastOutputAt = Date.now();
    s.end += data.length;
    s.scrollback = (s.scrollback + data).slice(-SCROLLBACK_CHARS);
    s.pending += data;
    // Coalesce bursts into one notification per event-loop turn: fewer JSON lines under load,
    // no added latency for an interactive echo.
    if (!s.flushScheduled) {
      s.flushScheduled = true;
      setImmediate(() => this.flush(s));
    }
  }

  private flush(s: PtySession): void {
    s.flushScheduled = false;
    if (!s.pending) return;
    const data = s.pending;
    s.pending = '';
    for (const [peer, unacked] of s.peers) {
      peer.notify('pty.output', { ptyId: s.id, data, end: s.end });
      s.peers.set(peer, unacked + data.length);
    }
    this.updateFlow(s);
  }

  private updateFlow(s: PtySession): void {
    // A terminal whose shell has ended is read to its end whatever its viewers' backlog.
    if (s.draining) return;
    const worst = Math.max(0, ...s.peers.values());
    if (!s.paused && worst > PTY_HIGH_WATER_BYTES) {
      s.paused = true;
      s.proc.pause();
    } else if (s.paused && worst <= PTY_LOW_WATER_BYTES) {
      s.paused = false;
      s.proc.resume();
    }
  }
}

/**
 * node-pty 1.1.0 gives the terminal 200 ms after the shell exits (DESTROY_SOCKET_TIMEOUT_MS in its
 * unixTerminal.js) and then destroys the socket, dropping whatever is still unread: all of it when
 * flow control paused the socket for a viewer that is behind, and the tail whenever the event loop
 * was busy for 200 ms (a loaded machine). Viewers then never see the shell's last lines. So once
 * the shell has exited (node-pty's `_boundClose`), that destroy first reads to the end: the socket
 * is resumed whatever the viewers' backlog (what is left fits in the kernel's pty buffer) and
 * closes at EOF as usual, or is destroyed after PTY_EXIT_DRAIN_MS when a background child still
 * holds the terminal open. An explicit destroy before the exit is left alone.
 */
function readToEndOnExit(proc: IPty, onDrain: () => void): void {
  const term = proc as unknown as { _socket?: Socket; _boundClose?: boolean };
  const socket = term._socket;
  if (!socket || typeof socket.destroy !== 'function') return; // another node-pty: its own rules
  const destroyNow = socket.destroy.bind(socket);
  let draining = false;
  socket.destroy = ((err?: Error) => {
    if (draining || err || !term._boundClose || socket.destroyed) return destroyNow(err);
    draining = true;
    onDrain();
    const cap = setTimeout(() => destroyNow(), PTY_EXIT_DRAIN_MS);
    socket.once('close', () => clearTimeout(cap));
    socket.resume();
    return socket;
  }) as Socket['destroy'];
}

function cleanMeta(meta: unknown): PtyMeta {
  if (!meta || typeof meta !== 'object') return {};
  const m = meta as Record<string, unknown>;
  const out: PtyMeta = {};
  for (const k of ['title', 'openedBy', 'sessionId', 'command'] as const) {
    if (typeof m[k] === 'string') out[k] = (m[k] as string).slice(0, META_MAX_CHARS);
  }
  if (m.agent === true) out.agent = true;
  return out;
}

function clampInt(v: unknown, dflt: number, min: number, max: number): number {
  const n = typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : dflt;
  return Math.min(max, Math.max(min, n));
}
