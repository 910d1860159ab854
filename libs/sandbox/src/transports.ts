import * as net from 'node:net';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type Docker from 'dockerode';
import { DEFAULT_SOCKET_PATH } from '@h/sandbox-protocol';

export interface SandboxStream {
  input: Readable;
  output: Writable;
  /** Tears the transport down (the client closes streams itself; this frees the rest). */
  dispose?: () => void;
}

export const SANDBOXD_ENTRY = '/opt/sandboxd/sandboxd.js';

/**
 * Portable transport: `docker exec -i <container> node sandboxd.js --bridge`, one hijacked HTTP
 * stream per client, demultiplexed (non-TTY execs frame stdout/stderr). Works on any Docker host,
 * needs no network and no shared filesystem; costs one exec at connect time only.
 */
export async function openDockerExecStream(docker: Docker, containerId: string, user: string): Promise<SandboxStream> {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: ['/usr/local/bin/node', SANDBOXD_ENTRY, '--bridge', '--socket', DEFAULT_SOCKET_PATH],
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    User: user,
  });
  const stream = (await exec.start({ hijack: true, stdin: true })) as unknown as net.Socket;
  stream.setNoDelay?.(true);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  docker.modem.demuxStream(stream, stdout, stderr);
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
