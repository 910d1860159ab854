import type * as net from 'node:net';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';

export interface AttachedExec {
  exec: Docker.Exec;
  /** The hijacked HTTP stream: write stdin to it; half-closable. */
  stream: net.Socket;
  stdout: PassThrough;
  stderr: PassThrough;
}

/**
 * `docker exec` of `cmd` with stdin, stdout and stderr attached and no TTY, so the streams stay
 * byte-exact (a JSON-RPC relay, a JSON-lines CLI); stdout and stderr are demultiplexed from
 * Docker's framing. The one way the sandbox code opens such an exec (transports.ts, docker-process.ts).
 */
export async function attachExec(
  docker: Docker,
  container: string,
  user: string,
  cmd: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<AttachedExec> {
  const exec = await docker.getContainer(container).exec({
    Cmd: cmd,
    ...(options.env ? { Env: Object.entries(options.env).map(([k, v]) => `${k}=${v}`) } : {}),
    ...(options.cwd ? { WorkingDir: options.cwd } : {}),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    User: user,
  });
  const stream = (await exec.start({ hijack: true, stdin: true })) as unknown as net.Socket;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  docker.modem.demuxStream(stream, stdout, stderr);
  return { exec, stream, stdout, stderr };
}
