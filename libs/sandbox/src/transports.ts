import * as net from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type Docker from 'dockerode';
import { DEFAULT_SOCKET_PATH } from '@h/sandbox-protocol';
import { attachExec } from './docker-exec-attach';

export interface SandboxStream {
  input: Readable;
  output: Writable;
  /** Tears the transport down (the client closes streams itself; this frees the rest). */
  dispose?: () => void;
}

export const SANDBOXD_ENTRY = '/opt/sandboxd/sandboxd.js';

// The relay run by `docker exec`: socat when the image has it (≈2 MB RSS, starts in a millisecond;
// `-t` keeps the reply direction open after the host half-closes so in-flight answers arrive),
// waiting up to 15 s for the daemon's socket right after a start; else sandboxd's own Node bridge
// (≈40 MB, ~80 ms start), which waits by itself.
export const BRIDGE_SCRIPT = [
  'if command -v socat >/dev/null 2>&1; then',
  '  i=0; while [ ! -S "$1" ] && [ "$i" -lt 1500 ]; do sleep 0.01; i=$((i+1)); done',
  '  exec socat -t 3600 STDIO "UNIX-CONNECT:$1"',
  'fi',
  'exec /usr/local/bin/node "$2" --bridge --socket "$1"',
].join('\n');

/**
 * Portable transport: `docker exec -i <container>` running a stdio<->socket relay, one hijacked
 * HTTP stream per client, demultiplexed (non-TTY execs frame stdout/stderr). Works on any Docker
 * host, needs no network and no shared filesystem; costs one exec at connect time only.
 */
export async function openDockerExecStream(docker: Docker, containerId: string, user: string): Promise<SandboxStream> {
  const { stream, stdout, stderr } = await attachExec(docker, containerId, user, ['/bin/sh', '-c', BRIDGE_SCRIPT, 'bridge', DEFAULT_SOCKET_PATH, SANDBOXD_ENTRY]);
  stream.setNoDelay?.(true);
  stderr.resume();
  stream.on('end', () => stdout.end());
  stream.on('close', () => stdout.end());
  stream.on('error', (e) => stdout.destroy(e));
  return { input: stdout, output: stream, dispose: () => stream.destroy() };
}

/** Direct transport where the daemon's socket is reachable (bind-mounted dir, or the local driver). */
export function openUnixSocketStream(socketPath: string, timeoutMs = 10_000): Promise<SandboxStream> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const s = net.connect(socketPath);
      s.once('connect', () => {
        s.setNoDelay?.(true);
        s.removeAllListeners('error');
        resolve({ input: s, output: s, dispose: () => s.destroy() });
      });
      s.once('error', (e: NodeJS.ErrnoException) => {
        if ((e.code === 'ENOENT' || e.code === 'ECONNREFUSED') && Date.now() < deadline) setTimeout(attempt, 20);
        else reject(e);
      });
    };
    attempt();
  });
}
