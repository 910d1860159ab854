// A small JSON-RPC 2.0 peer over newline-delimited JSON, used by both ends of the sandbox protocol.
//
// Why not vscode-jsonrpc: its stream reader/writer speak LSP framing (Content-Length headers), while
// the protocol is newline-delimited so that any tool (socat, `docker exec -i`, a shell) can talk to
// sandboxd. Plugging custom reader/writer classes into vscode-jsonrpc would still leave us its
// `$/cancelRequest` conventions and a larger bundle inside the image for ~150 lines of logic here.
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export const RPC_PARSE_ERROR = -32700;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INTERNAL_ERROR = -32603;
/** Application errors; `data.code` carries a WorkspaceErrorCode-style string. */
export const RPC_APP_ERROR = -32000;
/** The request was cancelled by the caller (`$/cancel`). */
export const RPC_CANCELLED = -32800;

/**
 * Default cap of one JSON line (bytes); a longer line closes the connection instead of growing
 * memory without bound. Big enough for a 50 MiB file as base64. The host, which must not trust
 * what a sandbox sends, uses a smaller cap of its own (SANDBOX_RPC_MAX_LINE_BYTES).
 */
export const MAX_LINE_BYTES = 96 * 1024 * 1024;

export interface RpcPeerOptions {
  /** Longest line accepted from the other side, in bytes (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /**
   * Called once when the other side sent a line over the cap, before the connection is reset
   * (for the log: nobody else learns why the calls in flight failed).
   */
  onLineTooLong?: (info: { maxLineBytes: number; receivedBytes: number }) => void;
}

/**
 * Calls in flight when the other side sent a line over the cap fail with this message and data.code
 * TOO_LARGE (not UNAVAILABLE: repeating the call would only bring the same line again).
 */
export const LINE_TOO_LONG = 'line too long';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: { code?: string; [k: string]: unknown };
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: { code?: string; [k: string]: unknown },
  ) {
    super(message);
    this.name = 'RpcError';
  }
  toJSON(): RpcErrorObject {
    return { code: this.code, message: this.message, ...(this.data ? { data: this.data } : {}) };
  }
}

export type RequestHandler = (params: any, ctx: { signal: AbortSignal; peer: RpcPeer }) => unknown;
export type NotificationHandler = (params: any, peer: RpcPeer) => void;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  cleanup?: () => void;
}

/**
 * Both a client and a server: `request`/`notify` outgoing, `onRequest`/`onNotification` incoming.
 * Cancellation: an aborted `request` sends `$/cancel {id}`; the handler's `signal` fires.
 */
export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly running = new Map<string | number, AbortController>();
  private readonly closeListeners: Array<(err?: Error) => void> = [];
  private closedWith: Error | null = null;
  private inputEnded = false;
  private parts: string[] = [];
  /** Bytes of the unfinished line held in `parts`: never more than maxLineBytes. */
  private partsBytes = 0;
  private readonly decoder = new StringDecoder('utf8');
  private readonly maxLineBytes: number;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: RpcPeerOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    input.on('data', (chunk: Buffer | string) => this.onData(chunk));
    // Half-close: the other side sent everything it will send; answer what is in flight, then close.
    input.on('end', () => {
      this.inputEnded = true;
      if (this.running.size === 0) this.close();
    });
    input.on('close', () => {
      this.inputEnded = true;
      if (this.running.size === 0) this.close();
    });
    input.on('error', (e: Error) => this.close(e));
    output.on('error', (e: Error) => this.close(e));
    this.onNotification('$/cancel', (p: { id: string | number }) => this.running.get(p?.id)?.abort());
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  /** Outgoing requests still waiting for their response. */
  get pendingCount(): number {
    return this.pending.size;
  }

  onRequest(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  onClose(listener: (err?: Error) => void): void {
    if (this.closedWith) listener(this.closedWith);
    else this.closeListeners.push(listener);
  }

  request<T = unknown>(method: string, params?: unknown, signal?: AbortSignal): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (signal?.aborted) return Promise.reject(new RpcError(RPC_CANCELLED, 'cancelled', { code: 'CANCELLED' }));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { resolve: resolve as (v: unknown) => void, reject };
      if (signal) {
        // The remote side answers a cancelled request with RPC_CANCELLED (or its result if it won
        // the race), so the promise settles from the response, not here.
        const onAbort = () => this.notify('$/cancel', { id });
        signal.addEventListener('abort', onAbort, { once: true });
        pending.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.pending.set(id, pending);
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    if (!this.closedWith) this.send({ jsonrpc: '2.0', method, params });
  }

  /** Bytes waiting in the output stream; notification producers use it for backpressure. */
  get writableLength(): number {
    return this.output.writableLength;
  }

  close(err?: Error): void {
    if (this.closedWith) return;
    this.closedWith = err ?? new RpcError(RPC_INTERNAL_ERROR, 'connection closed', { code: 'UNAVAILABLE' });
    for (const p of this.pending.values()) {
      p.cleanup?.();
      p.reject(this.closedWith);
    }
    this.pending.clear();
    this.parts = [];
    this.partsBytes = 0;
    for (const c of this.running.values()) c.abort();
    this.running.clear();
    // end() flushes what is queued (the last responses); destroy() follows once that is done, or
    // after a grace period if the other side never reads.
    this.output.end();
    const input = this.input;
    if (input !== (this.output as unknown)) input.destroy();
    else setTimeout(() => input.destroy(), 2000).unref();
    for (const l of this.closeListeners.splice(0)) l(this.closedWith);
  }

  private send(msg: unknown): void {
    this.output.write(JSON.stringify(msg) + '\n');
  }

  private onData(chunk: Buffer | string): void {
    // After a reset, whatever is still in the pipe is dropped unread.
    if (this.closedWith) return;
    // Only the new chunk is scanned for newlines: a multi-megabyte line (a base64 file) arriving in
    // many small chunks stays linear. The cap is checked before anything is joined or kept, so at
    // most maxLineBytes plus one chunk is ever held for a line.
    let text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let nl: number;
    while ((nl = text.indexOf('\n')) >= 0) {
      const head = text.slice(0, nl);
      if (this.tooLong(this.partsBytes + Buffer.byteLength(head, 'utf8'))) return;
      const line = (this.parts.length ? this.parts.join('') : '') + head;
      this.parts = [];
      this.partsBytes = 0;
      text = text.slice(nl + 1);
      if (line.trim()) this.onLine(line);
      if (this.closedWith) return;
    }
    if (text) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (this.tooLong(this.partsBytes + bytes)) return;
      this.parts.push(text);
      this.partsBytes += bytes;
    }
  }

  /** Resets the connection when a line passes the cap; true when it did. */
  private tooLong(receivedBytes: number): boolean {
    if (receivedBytes <= this.maxLineBytes) return false;
    try {
      this.options.onLineTooLong?.({ maxLineBytes: this.maxLineBytes, receivedBytes });
    } catch {
      // a failing logger must not keep the connection open
    }
    this.close(new RpcError(RPC_PARSE_ERROR, `${LINE_TOO_LONG}: the other side sent more than ${this.maxLineBytes} bytes in one message`, { code: 'TOO_LARGE', maxLineBytes: this.maxLineBytes }));
    return true;
  }

  private onLine(line: string): void {
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      this.send({ jsonrpc: '2.0', id: null, error: { code: RPC_PARSE_ERROR, message: 'parse error' } });
      return;
    }
    if (msg && typeof msg.method === 'string') {
      if (msg.id === undefined || msg.id === null) this.dispatchNotification(msg.method, msg.params);
      else void this.dispatchRequest(msg.id, msg.method, msg.params);
      return;
    }
    if (msg && (typeof msg.id === 'number' || typeof msg.id === 'string')) {
      const p = this.pending.get(msg.id as number);
      if (!p) return;
      this.pending.delete(msg.id as number);
      p.cleanup?.();
      if (msg.error) p.reject(new RpcError(msg.error.code, msg.error.message, msg.error.data));
      else p.resolve(msg.result);
    }
  }

  private dispatchNotification(method: string, params: unknown): void {
    const h = this.notificationHandlers.get(method);
    if (!h) return;
    try {
      h(params, this);
    } catch {
      // A notification has no one to answer; a failing handler must not kill the connection.
    }
  }

  private async dispatchRequest(id: string | number, method: string, params: unknown): Promise<void> {
    const h = this.requestHandlers.get(method);
    if (!h) {
      this.send({ jsonrpc: '2.0', id, error: { code: RPC_METHOD_NOT_FOUND, message: `unknown method ${method}` } });
      return;
    }
    const ac = new AbortController();
    this.running.set(id, ac);
    try {
      const result = await h(params ?? {}, { signal: ac.signal, peer: this });
      if (!this.closedWith) this.send({ jsonrpc: '2.0', id, result: result === undefined ? null : result });
    } catch (e) {
      if (this.closedWith) return;
      const err =
        e instanceof RpcError
          ? e.toJSON()
          : { code: RPC_INTERNAL_ERROR, message: e instanceof Error ? e.message : String(e) };
      this.send({ jsonrpc: '2.0', id, error: err });
    } finally {
      this.running.delete(id);
      if (this.inputEnded && this.running.size === 0) this.close();
    }
  }
}
