'use client';

import { useEffect, useReducer, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { api, errorMessage } from '../../lib/api-client';
import type { ClientToServerEvents, DeltaFrame, EventEnvelope, EventPage, ServerToClientEvents } from '@h/contracts';
import { applyDelta, applyEvents, type ConsoleState, initialConsoleState } from './transcript-state';
import { LIVE_SOCKET_OPTIONS } from '../../lib/live-socket';

export type Connection = 'loading' | 'live' | 'reconnecting' | 'failed';

type Action = { type: 'reset' } | { type: 'events'; events: EventEnvelope[] } | { type: 'delta'; frame: DeltaFrame };

function reduce(state: ConsoleState, action: Action): ConsoleState {
  if (action.type === 'reset') return initialConsoleState;
  if (action.type === 'events') return applyEvents(state, action.events);
  return applyDelta(state, action.frame);
}

/** The session socket, typed with the server's event maps (libs/contracts socket-events.ts). */
type SessionSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * One session's event log, live: the history over HTTP, then a Socket.IO subscription from the last
 * seq held. After a dropped connection it subscribes again from the last seq it holds, and the
 * server replays exactly what was missed (the state ignores anything it already has).
 */
export function useSessionStream(sessionId: string): { state: ConsoleState; connection: Connection; error: string | null } {
  const [state, dispatch] = useReducer(reduce, initialConsoleState);
  const [connection, setConnection] = useState<Connection>('loading');
  const [error, setError] = useState<string | null>(null);
  const lastSeq = useRef(0);

  useEffect(() => {
    let closed = false;
    let socket: SessionSocket | null = null;
    const controller = new AbortController();
    lastSeq.current = 0;
    dispatch({ type: 'reset' });
    setConnection('loading');
    setError(null);

    const take = (events: EventEnvelope[]) => {
      if (!events.length) return;
      lastSeq.current = Math.max(lastSeq.current, ...events.map((e) => e.seq));
      dispatch({ type: 'events', events });
    };

    const subscribe = (s: SessionSocket) => {
      s.emit('subscribe', { sessionId, afterSeq: lastSeq.current }, (ack) => {
        if (closed) return;
        if (ack?.ok) {
          setConnection('live');
          setError(null);
        } else {
          setConnection('failed');
          setError(ack?.error?.message ?? 'Could not follow this session.');
        }
      });
    };

    const connect = () => {
      const s: SessionSocket = io({ ...LIVE_SOCKET_OPTIONS });
      socket = s;
      // The server authenticates a new connection asynchronously and says `ready` when done; a
      // subscribe sent on `connect` can arrive before that and be refused.
      s.on('ready', () => subscribe(s));
      s.on('event', (e) => {
        if (e.sessionId !== sessionId || e.seq <= lastSeq.current) return;
        // The server sends each event once and in order; a hole means a stream was lost, so
        // catch up from what is held instead of showing a transcript with a gap.
        if (e.seq > lastSeq.current + 1) return subscribe(s);
        take([e]);
      });
      s.on('delta', (frame) => {
        if (frame.sessionId && frame.sessionId !== sessionId) return;
        dispatch({ type: 'delta', frame });
      });
      s.on('auth_error', (body) => {
        setConnection('failed');
        setError(body?.error?.message ?? 'Sign in again to follow this session.');
      });
      s.on('stream_error', () => subscribe(s));
      s.on('disconnect', (reason) => {
        if (closed) return;
        setConnection('reconnecting');
        // Socket.IO only reconnects by itself after transport failures, not when the server
        // closed the connection (e.g. a restart that drops sockets first).
        if (reason === 'io server disconnect') setTimeout(() => !closed && s.connect(), 1000);
      });
      s.on('connect_error', () => !closed && setConnection('reconnecting'));
    };

    void (async () => {
      try {
        for (;;) {
          const page = await api.get<EventPage>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/events?after=${lastSeq.current}&limit=1000`, {
            signal: controller.signal,
          });
          take(page.items);
          if (!page.hasMore) break;
        }
      } catch (cause) {
        if (controller.signal.aborted) return;
        setError(errorMessage(cause));
      }
      if (!closed) connect();
    })();

    return () => {
      closed = true;
      controller.abort();
      socket?.disconnect();
    };
  }, [sessionId]);

  return { state, connection, error };
}
