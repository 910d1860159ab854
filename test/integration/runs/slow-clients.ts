import * as net from 'node:net';
import WebSocket from 'ws';
import type { HttpClient } from '../../support/http-client';
import { cookieHeader } from './stream-clients';

// Clients that stop reading their stream, written below the usual libraries so that nothing on
// the client side takes data off the socket: the kernel buffers fill and whatever else is unsent
// stays in the api's memory, which is what the bound is about.

export interface StalledClient {
  /** The first bytes the server sent (status line and headers, for SSE). */
  head: Promise<string>;
  /** Resolves when the server closed or reset the connection. */
  closed: Promise<void>;
  destroy(): void;
}

/** An SSE request over a raw TCP socket that reads the response head, then never reads again. */
export function stalledSse(url: string, path: string, client: HttpClient): StalledClient {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const auth = client.bearer ? `authorization: Bearer ${client.bearer}` : `cookie: ${cookieHeader(client)}`;
  socket.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n${auth}\r\n\r\n`);
  const head = new Promise<string>((resolve) => {
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(chunk.toString('latin1'));
    });
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return { head, closed, destroy: () => socket.destroy() };
}

/**
 * A Socket.IO client spoken by hand over a raw engine.io WebSocket: it connects, subscribes to
 * the session, then pauses its socket (no reads, so no pong either).
 */
export function stalledSocket(url: string, client: HttpClient, sessionId: string): StalledClient {
  const wsUrl = `${url.replace(/^http/, 'ws')}/api/socket.io/?EIO=4&transport=websocket`;
  const headers: Record<string, string> = client.bearer ? { authorization: `Bearer ${client.bearer}` } : { cookie: cookieHeader(client) };
  const ws = new WebSocket(wsUrl, { headers });
  const head = new Promise<string>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (text.startsWith('0')) ws.send('40');
      else if (text.startsWith('42["ready"')) {
        ws.send(`420${JSON.stringify(['subscribe', { sessionId, afterSeq: 0 }])}`);
        ws.pause();
        resolve(text);
      } else if (text.startsWith('42["auth_error"')) reject(new Error(text));
    });
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  return { head, closed, destroy: () => ws.terminate() };
}
