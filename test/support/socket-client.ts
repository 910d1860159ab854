import { io, type Socket } from 'socket.io-client';
import type { HttpClient } from './http-client';

/**
 * A Socket.IO client of /api/socket.io with `client`'s browser cookies, resolved once the server
 * says `ready` (the handshake is authenticated); rejects on `auth_error` or a failed connect.
 */
export async function connectSocket(url: string, client: HttpClient): Promise<Socket> {
  const socket = io(url, {
    path: '/api/socket.io',
    transports: ['websocket'],
    extraHeaders: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('auth_error', (e) => reject(new Error(JSON.stringify(e))));
    socket.once('connect_error', reject);
  });
  return socket;
}
