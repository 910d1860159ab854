import { createConnection, createServer, type Server, type Socket } from 'node:net';

// One URL in front of several api replicas, as a load balancer without sticky sessions puts them:
// each new TCP connection goes to the next backend in turn, skipping one that refuses. Tests read
// `connections` to know which replica a client reached.

export interface Backend {
  name: string;
  port: number;
}

export interface TcpBalancer {
  url: string;
  /** The backend each accepted connection was piped to, in order. */
  connections: string[];
  close(): Promise<void>;
}

export async function startTcpBalancer(backends: Backend[]): Promise<TcpBalancer> {
  const connections: string[] = [];
  const open = new Set<Socket>();
  let next = 0;
  const pipeTo = (client: Socket, tried: number) => {
    if (tried >= backends.length) return client.destroy();
    const backend = backends[next++ % backends.length];
    const upstream = createConnection({ host: '127.0.0.1', port: backend.port });
    upstream.once('connect', () => {
      connections.push(backend.name);
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.once('error', () => {
      if (upstream.connecting) return pipeTo(client, tried + 1); // refused: the next backend
      client.destroy();
    });
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    pipeTo(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
