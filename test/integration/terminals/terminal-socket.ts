import { io, type Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
  TerminalChangedEvent,
  TerminalErrorEvent,
  TerminalExitEvent,
} from '@h/contracts';
import type { HttpClient } from '../../support/http-client';

export type TermSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A browser's socket as the terminal panel uses it: output gathered per terminal, with its end position. */
export interface TermWatcher {
  socket: TermSocket;
  output: Map<string, string>;
  ends: Map<string, number>;
  exits: TerminalExitEvent[];
  changes: TerminalChangedEvent[];
  errors: TerminalErrorEvent[];
  text(terminalId: string): string;
}

export async function termWatcher(url: string, client: HttpClient, opened: TermSocket[]): Promise<TermWatcher> {
  const socket: TermSocket = io(url, {
    path: '/api/socket.io',
    transports: ['websocket'],
    extraHeaders: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    reconnection: false,
    forceNew: true,
  });
  opened.push(socket);
  const w: TermWatcher = {
    socket,
    output: new Map(),
    ends: new Map(),
    exits: [],
    changes: [],
    errors: [],
    text: (id) => w.output.get(id) ?? '',
  };
  socket.on('terminal.output', (e) => {
    w.output.set(e.terminalId, w.text(e.terminalId) + e.data);
    w.ends.set(e.terminalId, e.end);
  });
  socket.on('terminal.exit', (e) => w.exits.push(e));
  socket.on('terminal.changed', (e) => w.changes.push(e));
  socket.on('terminal.error', (e) => w.errors.push(e));
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('auth_error', (e) => reject(new Error(JSON.stringify(e))));
    socket.once('connect_error', reject);
  });
  return w;
}

/** Writes an attach or open answer into the watcher's view, as the panel does. */
export function written(w: TermWatcher, terminalId: string, answer: { data: string; reset: boolean; end: number }): void {
  w.output.set(terminalId, (answer.reset ? '' : w.text(terminalId)) + answer.data);
  w.ends.set(terminalId, answer.end);
}

type Attached = Parameters<Parameters<ClientToServerEvents['terminal.attach']>[1]>[0];

/**
 * terminal.attach / terminal.open with the answer written inside the ack callback: it runs as the
 * ack arrives, before any output event behind it (a promise continuation would run after them).
 */
export function attachAndWrite(w: TermWatcher, event: 'terminal.attach' | 'terminal.open', request: Record<string, unknown>): Promise<Attached> {
  return new Promise((resolve) => {
    const done = (answer: Attached) => {
      if (answer.ok) written(w, answer.data.terminal.id, answer.data);
      resolve(answer);
    };
    if (event === 'terminal.open') w.socket.emit('terminal.open', request as never, done);
    else w.socket.emit('terminal.attach', request as never, done);
  });
}
