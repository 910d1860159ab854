import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { SandboxProcess, SpawnOptions } from '../sandbox-driver';
import { exitCodeOf, type ExecStatus, type KubernetesExecFn } from './kubernetes-exec-stream';
import { SANDBOX_CONTAINER } from './kubernetes-manifests';
import { graceKill } from '../process-kill';

/**
 * `argv` in the sandbox pod through the exec API with stdin, stdout and stderr attached (no TTY,
 * byte-exact streams), the Kubernetes form of spawnDockerProcess: the exec API takes no env or cwd,
 * so `env` and the shell set them; the process starts its own session (`setsid -w`) and records its
 * pid in /tmp, and kill() signals that whole group through a second exec (TERM, KILL after a grace
 * period), since closing an exec's streams does not end its process.
 */
export async function spawnKubernetesProcess(exec: KubernetesExecFn, namespace: string, pod: string, options: SpawnOptions): Promise<SandboxProcess> {
  const pidFile = `/tmp/h-proc-${randomBytes(8).toString('hex')}.pid`;
  const env = Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`);
  const command = ['env', ...env, 'setsid', '-w', '/bin/sh', '-c', 'cd "$1" || exit 127; echo $$ >"$0"; shift; exec "$@"', pidFile, options.cwd ?? '/workspace', ...options.argv];
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let settle: (code: number | null) => void = () => undefined;
  const exited = new Promise<number | null>((resolve) => (settle = resolve));
  const end = (code: number | null) => {
    stdout.end();
    stderr.end();
    settle(code);
  };
  const ws = await exec(namespace, pod, SANDBOX_CONTAINER, command, stdout, stderr, stdin, false, (s: ExecStatus) => end(exitCodeOf(s)));
  ws.on?.('close', () => end(null));

  const signal = async (sig: 'TERM' | 'KILL'): Promise<void> => {
    const sink = new PassThrough().resume();
    await new Promise<void>((resolve, reject) => {
      // dash's kill takes no `--`: `kill -SIG -PGID` signals the group.
      exec(namespace, pod, SANDBOX_CONTAINER, ['/bin/sh', '-c', `test -s "$0" && kill -${sig} -"$(cat "$0")" 2>/dev/null; true`, pidFile], sink, sink, new PassThrough(), false, () => resolve()).then(
        (killer) => killer.on?.('close', () => resolve()),
        reject,
      );
    });
  };
  const kill = graceKill(signal, exited, () => ws.close());
  return { stdin, stdout, stderr, exited, kill };
}
