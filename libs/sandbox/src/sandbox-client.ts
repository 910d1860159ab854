import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { Readable, Writable } from 'node:stream';
import {
  RpcError,
  RpcPeer,
  type FsChangedNotification,
  type LspDiagnosticsNotification,
  type LspStatusNotification,
  type PtyChangedNotification,
  type PtyExitNotification,
  type PtyOpenParams,
  type PtyOutputNotification,
  type SandboxMethod,
  type SandboxMethods,
} from '@h/sandbox-protocol';
import type { BrowserActionNotification, BrowserFrameNotification, BrowserStateNotification } from '@h/sandbox-protocol';
import { WorkspaceError, type WorkspaceErrorCode } from '@h/contracts';
import { failSpan, metrics, SpanKind, startSpan } from '@h/telemetry';

const WORKSPACE_CODES = new Set<string>([
  'PATH_OUTSIDE_WORKSPACE',
  'NOT_FOUND',
  'IS_DIRECTORY',
  'NOT_DIRECTORY',
  'ALREADY_EXISTS',
  'TOO_LARGE',
  'UNAVAILABLE',
  'IO_ERROR',
]);

/**
 * Longest JSON-RPC line the host accepts from a sandbox by default (SANDBOX_RPC_MAX_LINE_BYTES):
 * what a sandbox sends is untrusted, and a line is held whole until its newline arrives.
 */
export const HOST_RPC_MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface SandboxClientOptions {
  maxLineBytes?: number;
}

/** Protocol error -> WorkspaceError (codes outside the workspace set become IO_ERROR). */
export function toWorkspaceError(e: unknown): Error {
  if (e instanceof WorkspaceError) return e;
  if (e instanceof RpcError) {
    const code = e.data?.code ?? '';
    if (WORKSPACE_CODES.has(code)) return new WorkspaceError(code as WorkspaceErrorCode, e.message);
    if (code === 'CANCELLED') return e;
    return new WorkspaceError('IO_ERROR', e.message);
  }
  return e instanceof Error ? e : new Error(String(e));
}

/** A terminal inside the sandbox. Output is acknowledged automatically once listeners ran. */
export class SandboxTerminal extends EventEmitter<{
  /** Output, and the terminal's total printed chars up to its end (undefined from an older sandboxd). */
  data: [string, number | undefined];
  /** `lost`: the connection dropped, the terminal itself may still run (kept-alive ones do). */
  exit: [{ exitCode: number; signal: number | null; lost?: boolean }];
}> {
  exited = false;

  constructor(
    private readonly client: SandboxClient,
    readonly id: string,
    readonly pid: number,
  ) {
    super();
  }

  write(data: string): void {
    this.client.writeTerminal(this.id, data);
  }

  resize(cols: number, rows: number): Promise<null> {
    return this.client.call('pty.resize', { ptyId: this.id, cols, rows });
  }

  close(): Promise<null> {
    return this.client.call('pty.close', { ptyId: this.id });
  }

  /** Stops this connection's copy of the output; a kept-alive terminal keeps running. */
  detach(): Promise<null> {
    return this.client.detachTerminal(this.id);
  }

  /** @internal */
  deliver(data: string, end?: number): void {
    // A terminal producing output (a long build) keeps the sandbox from counting as idle.
    this.client.emit('activity');
    this.emit('data', data, typeof end === 'number' ? end : undefined);
    // Flow control: the daemon pauses the PTY when too much output is unacknowledged.
    this.client.peer.notify('pty.ack', { ptyId: this.id, bytes: data.length });
  }
}

/**
 * One long-lived JSON-RPC connection to a sandboxd (over a `docker exec` bridge or a unix socket).
 * Calls after connect cost one round trip on the open stream.
 */
export class SandboxClient extends EventEmitter<{
  close: [Error | undefined];
  /** Changed paths, and the whole notification (kinds, hashes, overflow). */
  'fs.changed': [string[], FsChangedNotification];
  /** A terminal was opened or ended, by any connection to this sandbox. */
  'pty.changed': [PtyChangedNotification];
  /** Language servers' diagnostics (unchecked: what the sandbox sent). */
  'lsp.diagnostics': [LspDiagnosticsNotification];
  'lsp.status': [LspStatusNotification];
  /** The sandbox browser's tabs changed; to every connection (the browser view listens). */
  'browser.state': [BrowserStateNotification];
  /** A screencast frame; only to a connection that turned `browser.screencast` on. Ack each one. */
  'browser.frame': [BrowserFrameNotification];
  /** A browser tool or input acted on the page. */
  'browser.action': [BrowserActionNotification];
  activity: [];
}> {
  readonly peer: RpcPeer;
  private readonly terminals = new Map<string, SandboxTerminal>();
  /**
   * Output and exits of terminals this connection does not know yet, kept briefly: the answer to
   * `pty.open` and the first output can arrive in one read, and the output would be handled before
   * the caller registered the terminal. openTerminal replays them.
   */
  private readonly early = new Map<string, Array<PtyOutputNotification | PtyExitNotification>>();

  private static readonly logger = new Logger('SandboxClient');

  constructor(input: Readable, output: Writable, private readonly onDispose?: () => void, options: SandboxClientOptions = {}) {
    super();
    this.peer = new RpcPeer(input, output, {
      maxLineBytes: options.maxLineBytes ?? HOST_RPC_MAX_LINE_BYTES,
      onLineTooLong: (info) =>
        SandboxClient.logger.error(info, 'a sandbox sent a JSON-RPC line over the host cap; connection reset, calls in flight failed'),
    });
    this.peer.onNotification('pty.output', (p: PtyOutputNotification) => {
      const t = this.terminals.get(p.ptyId);
      if (t) t.deliver(p.data, p.end);
      else this.keepEarly(p);
    });
    this.peer.onNotification('pty.changed', (p: PtyChangedNotification) => {
      if (typeof p?.ptyId === 'string' && ['opened', 'closed', 'renamed'].includes(p.change)) this.emit('pty.changed', p);
    });
    this.peer.onNotification('pty.exit', (p: PtyExitNotification) => {
      const t = this.terminals.get(p.ptyId);
      if (!t) return this.keepEarly(p);
      this.terminals.delete(p.ptyId);
      t.exited = true;
      t.emit('exit', { exitCode: p.exitCode, signal: p.signal });
    });
    // One handler per method in RpcPeer: browser notifications are re-emitted for any number of listeners.
    this.peer.onNotification('browser.state', (p: BrowserStateNotification) => this.emit('browser.state', p));
    this.peer.onNotification('browser.frame', (p: BrowserFrameNotification) => this.emit('browser.frame', p));
    this.peer.onNotification('browser.action', (p: BrowserActionNotification) => this.emit('browser.action', p));
    this.peer.onNotification('fs.changed', (p: FsChangedNotification) => this.emit('fs.changed', Array.isArray(p?.paths) ? p.paths : [], p));
    // Language servers' diagnostics and states (apps/sandboxd lsp/): untrusted, libs/lsp checks them.
    this.peer.onNotification('lsp.diagnostics', (p: LspDiagnosticsNotification) => this.emit('lsp.diagnostics', p));
    this.peer.onNotification('lsp.status', (p: LspStatusNotification) => this.emit('lsp.status', p));
    this.peer.onClose((err) => {
      for (const t of this.terminals.values()) {
        t.exited = true;
        t.emit('exit', { exitCode: -1, signal: null, lost: true });
      }
      this.terminals.clear();
      this.onDispose?.();
      this.emit('close', err);
    });
  }

  get closed(): boolean {
    return this.peer.closed;
  }

  /** A request is in flight (a long build counts as use, however long it runs). */
  get busy(): boolean {
    return this.peer.pendingCount > 0;
  }

  /** Typed call; errors arrive as RpcError with `data.code`. */
  call<M extends SandboxMethod>(method: M, params: SandboxMethods[M][0], signal?: AbortSignal): Promise<SandboxMethods[M][1]> {
    if (method !== 'health') this.emit('activity');
    // Timed and traced here, the one door every host-side RPC goes through (a child span of the
    // tool call or request that made it).
    const started = performance.now();
    const { span } = startSpan(`sandbox ${method}`, { 'rpc.system': 'jsonrpc', 'rpc.method': method }, { kind: SpanKind.CLIENT });
    return this.peer.request<SandboxMethods[M][1]>(method, params, signal).then(
      (result) => {
        metrics.sandboxRpcDuration.observe({ method, outcome: 'ok' }, (performance.now() - started) / 1000);
        span.end();
        return result;
      },
      (err: unknown) => {
        metrics.sandboxRpcDuration.observe({ method, outcome: 'error' }, (performance.now() - started) / 1000);
        failSpan(span, err);
        span.end();
        throw err;
      },
    );
  }

  /**
   * Opens a terminal. `onTerminal` runs as soon as it exists, before any output is delivered, so
   * listeners attached there miss nothing (not even a command that fails at once).
   */
  async openTerminal(params: PtyOpenParams = {}, onTerminal?: (t: SandboxTerminal) => void): Promise<SandboxTerminal> {
    const { ptyId, pid } = await this.call('pty.open', params);
    const t = new SandboxTerminal(this, ptyId, pid);
    this.terminals.set(ptyId, t);
    onTerminal?.(t);
    const early = this.early.get(ptyId) ?? [];
    this.early.delete(ptyId);
    for (const n of early) {
      if ('data' in n) t.deliver(n.data, n.end);
      else {
        this.terminals.delete(ptyId);
        t.exited = true;
        t.emit('exit', { exitCode: n.exitCode, signal: n.signal });
      }
    }
    return t;
  }

  private keepEarly(n: PtyOutputNotification | PtyExitNotification): void {
    if (typeof n?.ptyId !== 'string') return;
    let list = this.early.get(n.ptyId);
    if (!list) {
      // Only the few notifications of one read matter; a terminal nobody claims is forgotten.
      if (this.early.size >= 16) return;
      list = [];
      this.early.set(n.ptyId, list);
      setTimeout(() => this.early.delete(n.ptyId), 2000).unref();
    }
    if (list.length < 64) list.push(n);
  }

  /**
   * Joins a terminal opened (with keepAlive) by another connection; returns its recent output and
   * its end position. Attaching again is idempotent: the same SandboxTerminal, a fresh scrollback.
   */
  async attachTerminal(ptyId: string): Promise<{ terminal: SandboxTerminal; scrollback: string; end?: number }> {
    const existing = this.terminals.get(ptyId);
    const t = existing ?? new SandboxTerminal(this, ptyId, -1);
    this.terminals.set(ptyId, t);
    try {
      const { scrollback, end } = await this.call('pty.attach', { ptyId });
      return { terminal: t, scrollback, end };
    } catch (e) {
      if (!existing) this.terminals.delete(ptyId);
      throw e;
    }
  }

  /** Keystrokes to any terminal of the sandbox, attached here or not; a notification: no response line each. */
  writeTerminal(ptyId: string, data: string): void {
    this.peer.notify('pty.write', { ptyId, data });
    this.emit('activity');
  }

  /** The terminal this connection opened or attached, if it still runs. */
  terminal(ptyId: string): SandboxTerminal | undefined {
    return this.terminals.get(ptyId);
  }

  async detachTerminal(ptyId: string): Promise<null> {
    this.terminals.delete(ptyId);
    return this.call('pty.detach', { ptyId });
  }

  /** Tells sandboxd the last screencast frame was handled, so it may send the next one. */
  browserFrameAck(): void {
    this.peer.notify('browser.frameAck', {});
  }

  watchFiles(enabled = true): Promise<null> {
    return this.call('fs.watch', { enabled });
  }

  close(): void {
    this.peer.close();
  }
}
