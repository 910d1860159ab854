import * as net from 'node:net';

/**
 * `sandboxd --bridge`: run by the host through `docker exec -i`; pipes stdio to the daemon's unix
 * socket so the host gets one long-lived JSON-RPC stream without any network. Waits briefly for
 * the socket, so a host may attach right after starting the container.
 */
export async function runBridge(socketPath: string, waitMs = 15_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  let socket: net.Socket | null = null;
  while (!socket) {
    try {
      socket = await connect(socketPath);
    } catch (e) {
      if (Date.now() > deadline) {
        process.stderr.write(`sandboxd bridge: cannot connect to ${socketPath}: ${(e as Error).message}\n`);
        process.exit(2);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  socket.setNoDelay?.(true);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  process.stdin.on('end', () => socket?.end());
  // process.exit() drops unflushed pipe writes: exit only once stdout has drained.
  socket.on('close', () => process.stdout.write('', () => process.exit(0)));
  socket.on('error', () => process.exit(1));
}

function connect(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}
