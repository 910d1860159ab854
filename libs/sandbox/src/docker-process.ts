import { randomBytes } from 'node:crypto';
import type * as net from 'node:net';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { attachExec } from './docker-exec-attach';
import type { SandboxProcess, SpawnOptions } from './sandbox-driver';
import { graceKill } from './process-kill';

/**
 * Runs `argv` in the container through `docker exec` with stdin, stdout and stderr attached (no
 * TTY: the streams stay byte-exact for a JSON-lines protocol). A docker exec is not ended by
 * closing its stream, so the process starts its own session (`setsid -w`, util-linux) and records
 * its pid in /tmp: kill() signals that whole process group (the CLI and the commands it started)
 * through a second exec, TERM first and KILL after a grace period.
 */
export async function spawnDockerProcess(docker: Docker, container: string, user: string, options: SpawnOptions): Promise<SandboxProcess> {
  const pidFile = `/tmp/h-proc-${randomBytes(8).toString('hex')}.pid`;
  const { exec, stream, stdout, stderr } = await attachExec(
    docker,
    container,
    user,
    ['setsid', '-w', '/bin/sh', '-c', 'echo $$ >"$0" && exec "$@"', pidFile, ...options.argv],
    { env: options.env ?? {}, cwd: options.cwd ?? '/workspace' },
  );
  const ended = new Promise<void>((resolve) => {
    const end = (): void => {
      stdout.end();
      stderr.end();
      resolve();
    };
    stream.once('end', end);
    stream.once('close', end);
    stream.once('error', end);
  });
  // Closing stdin must not close the reading half: Docker's hijacked stream is half-closable.
  const stdin = new PassThrough();
  stdin.pipe(stream);
  stdin.on('end', () => {
    (stream as net.Socket & { end: () => void }).end?.();
  });
  const exited = ended.then(async () => {
    try {
      return (await exec.inspect()).ExitCode ?? null;
    } catch {
      return null;
    }
  });
  const signal = async (sig: 'TERM' | 'KILL'): Promise<void> => {
    const killer = await docker.getContainer(container).exec({
      // dash's kill takes no `--`: `kill -SIG -PGID` signals the group.
      Cmd: ['/bin/sh', '-c', `test -s "$0" && kill -${sig} -"$(cat "$0")" 2>/dev/null; true`, pidFile],
      User: user,
      AttachStdout: true,
      AttachStderr: true,
    });
    const s = (await killer.start({})) as unknown as NodeJS.ReadableStream;
    await new Promise<void>((resolve) => {
      s.on('end', () => resolve());
      s.on('error', () => resolve());
      s.resume();
    });
  };
  const kill = graceKill(signal, exited, () => stream.destroy());
  return { stdin, stdout, stderr, exited, kill };
}
