// How every live feature of the IDE opens its Socket.IO connection. WebSocket first: behind a load
// balancer without sticky sessions (several api replicas, issue 15) a WebSocket stays on the
// replica it reached, while HTTP long-polling's requests would be spread over replicas that do not
// know its session. Polling stays as the fallback where WebSockets are blocked (it then needs
// sticky sessions, see infra/README.md).
import type { ManagerOptions, SocketOptions } from 'socket.io-client';

export const LIVE_SOCKET_OPTIONS: Partial<ManagerOptions & SocketOptions> = {
  path: '/api/socket.io',
  withCredentials: true,
  transports: ['websocket', 'polling'],
  reconnectionDelayMax: 4000,
};
