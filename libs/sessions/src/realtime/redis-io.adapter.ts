import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@h/contracts';
import { metrics } from '@h/telemetry';

/** The one Socket.IO server, typed with the contracts' event maps (socket-events.ts). */
export type SessionIoServer = Server<ClientToServerEvents, ServerToClientEvents>;

// Lets several api replicas serve one Socket.IO namespace: room broadcasts go through Redis.
// Session events do not depend on it (each replica reads the log and the event bus itself).
export class RedisIoAdapter extends IoAdapter {
  private pub?: Redis;
  private sub?: Redis;

  constructor(
    app: INestApplicationContext,
    private readonly redisUrl: string,
    private readonly keyPrefix: string,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): SessionIoServer {
    const server: SessionIoServer = super.createIOServer(port, { ...options, path: '/api/socket.io', serveClient: false });
    this.pub ??= new Redis(this.redisUrl);
    this.sub ??= this.pub.duplicate();
    server.adapter(createAdapter(this.pub, this.sub, { key: `${this.keyPrefix}:socket.io` }));
    countConnections(server);
    return server;
  }

  override async close(server: Server): Promise<void> {
    await super.close(server);
    await Promise.all([this.pub?.quit().catch(() => undefined), this.sub?.quit().catch(() => undefined)]);
  }
}

const counted = new WeakSet<object>();

// Engine.IO connections, not namespace sockets: one browser tab is one connection whichever
// gateways (sessions, terminals, presence, LSP) it talks to.
function countConnections(server: SessionIoServer): void {
  const engine = server.engine as unknown as { on(event: 'connection', fn: (socket: { once(event: 'close', fn: () => void): void }) => void): void } | undefined;
  if (!engine || counted.has(engine)) return;
  counted.add(engine);
  engine.on('connection', (socket) => {
    metrics.socketConnections.inc();
    socket.once('close', () => metrics.socketConnections.dec());
  });
}
