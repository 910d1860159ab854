import * as net from 'node:net';

/** Where the forwarder listens inside the sandbox (its loopback is all the sandbox has). */
export const EGRESS_DEFAULT_PORT = 3128;

let proxyEnv: Record<string, string> = {};

/**
 * HTTP_PROXY and friends for commands and terminals, once the forwarder runs (empty otherwise: a
 * sandbox without network access gets no proxy variables and has nowhere to go).
 */
export function egressProxyEnv(): Record<string, string> {
  return proxyEnv;
}

/**
 * The sandbox has no network interface but loopback (`--network none`); the host's egress proxy
 * is reached through a unix socket mounted into it. Most tools only speak HTTP_PROXY over TCP, so
 * this relays 127.0.0.1:<port> to that socket, byte for byte: every decision is the host proxy's.
 */
export async function startEgressForwarder(socketPath: string, port = EGRESS_DEFAULT_PORT): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => {
      // The proxy is not there (e.g. the worker is restarting): say so the way a proxy would.
      if (!client.destroyed && upstream.bytesWritten === 0) {
        client.end('HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nH egress proxy is not reachable right now; retry shortly.\n');
      } else client.destroy();
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  useEgressProxyUrl(`http://127.0.0.1:${port}`);
  return server;
}

/** Offers commands the egress proxy at `url` (the forwarder's loopback port, or the cluster's proxy). */
export function useEgressProxyUrl(url: string): void {
  proxyEnv = {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: 'localhost,127.0.0.1',
    no_proxy: 'localhost,127.0.0.1',
  };
}
