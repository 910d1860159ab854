import { io, type Socket } from 'socket.io-client';
import type { HttpClient } from '../../support/http-client';

// Clients of the two live transports, written the way an outside consumer would use them: a
// Socket.IO client on /api/socket.io and a hand-parsed text/event-stream over fetch.

export type Ack<T = any> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

export function cookieHeader(client: HttpClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

export interface SocketOptions {
  /** Browser-style login: the client's session cookie. */
  cookieOf?: HttpClient;
  /** Bot-style login: an API token in the handshake's auth. */
  token?: string;
  origin?: string;
  reconnection?: boolean;
}

/** Opens a socket; resolves once the server said `ready` (or `auth_error`, which rejects). */
export async function connectSocket(url: string, options: SocketOptions): Promise<Socket> {
  const socket = openSocket(url, options);
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('auth_error', (e: { error: { code: string } }) => reject(new Error(`auth_error ${e.error.code}`)));
    socket.once('connect_error', (e) => reject(e));
  });
  return socket;
}

/** The socket without waiting for anything (for handshakes that should be refused). */
export function openSocket(url: string, options: SocketOptions): Socket {
  const headers: Record<string, string> = {};
  if (options.cookieOf) headers.cookie = cookieHeader(options.cookieOf);
  if (options.origin) headers.origin = options.origin;
  return io(url, {
    path: '/api/socket.io',
    transports: ['websocket'],
    extraHeaders: headers,
    auth: options.token ? { token: options.token } : {},
    reconnection: options.reconnection ?? false,
    forceNew: true,
  });
}

export async function emitAck<T = any>(socket: Socket, event: string, body: unknown): Promise<Ack<T>> {
  return socket.timeout(15000).emitWithAck(event, body);
}

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/**
 * Opens the session's SSE stream and calls `onFrame` for every frame (comments included) until
 * the stream ends or `signal` aborts. Resolves with the HTTP status when the stream is over.
 */
export async function readSse(
  url: string,
  path: string,
  client: HttpClient,
  onFrame: (frame: SseFrame) => void,
  options: { lastEventId?: string; signal?: AbortSignal; onOpen?: () => void } = {},
): Promise<{ status: number; body?: string }> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (client.bearer) headers.authorization = `Bearer ${client.bearer}`;
  else headers.cookie = cookieHeader(client);
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  let res: Response;
  try {
    res = await fetch(url + path, { headers, signal: options.signal });
  } catch (err) {
    if (options.signal?.aborted) return { status: 0 };
    throw err;
  }
  if (res.status !== 200 || !res.body) return { status: res.status, body: await res.text() };
  options.onOpen?.();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        onFrame(parseFrame(block));
      }
    }
  } catch (err) {
    if (!options.signal?.aborted) throw err;
  }
  return { status: 200 };
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
  }
  return frame;
}
