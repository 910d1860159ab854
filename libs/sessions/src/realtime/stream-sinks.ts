// The two transports a SessionStream writes to, each with an honest measure of what the api holds
// for its client, so replay waits for a drain and live events to a slow client stay bounded.
import type { Response } from 'express';
import type { Socket } from 'socket.io';
import type { ServerToClientEvents } from '@h/contracts';
import { errorBody } from '@h/http';
import type { StreamEnd, StreamSink } from './session-stream';

/** Below this the transport counts as drained again (replay writes on). */
const LOW_WATER_BYTES = 64 * 1024;
/** How long a cut client may still take the reason frame before its connection is destroyed. */
const HANG_UP_GRACE_MS = 1000;

/** SSE: a frame per event on the HTTP response; Node's own write buffer is the measure. */
export function sseSink(res: Response, hooks: { failed: () => void }): StreamSink {
  return {
    event: (e) => res.write(`id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`),
    ephemeral: (f) => void res.write(`event: delta\ndata: ${JSON.stringify(f)}\n\n`),
    // The response's own buffer plus its socket's: both are memory of this process.
    buffered: () => res.writableLength,
    drained: () =>
      new Promise<void>((resolve) => {
        if (!res.writableNeedDrain || res.destroyed) return resolve();
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      }),
    end: (reason: StreamEnd) => {
      res.write(`event: stream_error\ndata: ${JSON.stringify({ ...errorBody(reason.code, reason.message), lastSeq: reason.lastSeq })}\n\n`);
      res.end();
      // A client that reads nothing never takes what is queued: free it.
      setTimeout(() => res.destroy(), HANG_UP_GRACE_MS).unref();
    },
    failed: hooks.failed,
  };
}

interface EnginePacket {
  data?: string | ArrayBufferLike | ArrayBufferView;
}

/**
 * What the api holds for one Socket.IO connection: packets engine.io has not handed to the
 * transport yet (`writeBuffer`) and, for a WebSocket, the bytes it has not written to the kernel.
 */
export function socketBufferedBytes(socket: Socket): number {
  const conn = socket.conn as unknown as { writeBuffer?: EnginePacket[]; transport?: { socket?: { bufferedAmount?: number } } };
  let n = 0;
  for (const p of conn.writeBuffer ?? []) {
    if (typeof p.data === 'string') n += p.data.length;
    else if (p.data && 'byteLength' in p.data) n += p.data.byteLength;
  }
  const ws = conn.transport?.socket;
  if (ws && typeof ws.bufferedAmount === 'number') n += ws.bufferedAmount;
  return n;
}

function socketDrained(socket: Socket): Promise<void> {
  return new Promise<void>((resolve) => {
    const conn = socket.conn;
    const transport = conn.transport as unknown as NodeJS.EventEmitter;
    const check = () => {
      if (!socket.connected || socketBufferedBytes(socket) <= LOW_WATER_BYTES) {
        clearInterval(timer);
        conn.off('drain', check);
        transport.off('drain', check);
        socket.off('disconnect', check);
        resolve();
      }
    };
    // engine.io signals a flush to the transport ('drain' on the connection) and the transport's
    // own write completion ('drain' on the transport); the timer covers a transport upgrade.
    const timer = setInterval(check, 250);
    timer.unref();
    conn.on('drain', check);
    transport.on('drain', check);
    socket.on('disconnect', check);
    check();
  });
}

/** Socket.IO: `event`/`delta` frames on the socket; the connection's buffer is the measure (shared by its subscriptions). */
export function socketSink(socket: Socket<Record<string, never>, ServerToClientEvents>, sessionId: string): StreamSink {
  return {
    event: (e) => {
      socket.emit('event', e);
      return socketBufferedBytes(socket) <= LOW_WATER_BYTES;
    },
    ephemeral: (f) => void socket.emit('delta', f),
    buffered: () => socketBufferedBytes(socket),
    drained: () => socketDrained(socket),
    end: (reason: StreamEnd) => {
      socket.emit('stream_error', { sessionId, lastSeq: reason.lastSeq, ...errorBody(reason.code, reason.message) });
      // The buffer belongs to the connection, not to one subscription: the whole connection goes.
      socket.disconnect(true);
      const ws = (socket.conn.transport as unknown as { socket?: { terminate?: () => void } }).socket;
      setTimeout(() => ws?.terminate?.(), HANG_UP_GRACE_MS).unref();
    },
    failed: (e) => socket.emit('stream_error', { sessionId, ...errorBody('STREAM_FAILED', e.message) }),
  };
}
