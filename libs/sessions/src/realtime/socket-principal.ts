import type { Socket } from 'socket.io';
import type { Principal } from '@h/identity';
import type { LiveCredentials } from './live-access.service';

/**
 * Who a socket of /api/socket.io is, for other gateways on the same server (libs/files): the
 * SessionGateway authenticates every handshake once and keeps the result on the socket. Waits
 * for a handshake still being checked; undefined when it was refused or has ended.
 */
export async function socketPrincipal(socket: Socket): Promise<{ principal: Principal; credentials: LiveCredentials } | undefined> {
  if (!socket.data.h) await (socket.data.connecting as Promise<void> | undefined);
  const state = socket.data.h as { principal: Principal; credentials: LiveCredentials } | undefined;
  return state ? { principal: state.principal, credentials: state.credentials } : undefined;
}
