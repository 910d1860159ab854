import { connect } from 'node:net';
import type { Socket } from 'socket.io-client';

// What fetch and socket.io-client refuse to send (a NUL in a header, JSON nested past the
// client's own stack), written byte for byte.

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
}

/**
 * One HTTP/1.1 request over a fresh TCP connection, `head` being the request line and headers
 * (latin-1, without the final blank line). An event stream is read up to its headers only.
 */
export function rawHttp(url: string, head: string, timeoutMs = 15000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(new Error(`no complete answer to ${head.split('\r\n')[0]}`)), timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const raw = data.toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const text = raw.slice(split + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: keep the text */
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text, body });
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const raw = data.toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, split));
      if (/\r\ncontent-type: *text\/event-stream/i.test(raw.slice(0, split))) finish();
      else if (length && data.length >= split + 4 + Number(length[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.write(Buffer.from(`${head}\r\nconnection: close\r\n\r\n`, 'latin1'));
  });
}

let ackIds = 1_000_000;

/**
 * Emits `event` with a payload given as JSON source text (so it may be nested deeper than
 * JSON.stringify can go) on the socket's engine, and resolves with the acknowledgement.
 */
export function emitRaw(socket: Socket, event: string, json: string, timeoutMs = 15000): Promise<unknown> {
  const id = ackIds++;
  const engine = socket.io.engine;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      engine.off('message', onMessage);
      reject(new Error(`no acknowledgement for ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (data: unknown) => {
      const prefix = `3${id}[`;
      if (typeof data !== 'string' || !data.startsWith(prefix)) return;
      clearTimeout(timer);
      engine.off('message', onMessage);
      resolve((JSON.parse(data.slice(prefix.length - 1)) as unknown[])[0]);
    };
    engine.on('message', onMessage);
    // A Socket.IO EVENT packet (2) with an acknowledgement id; the engine wraps it in a message.
    engine.write(`2${id}[${JSON.stringify(event)},${json}]`);
  });
}
