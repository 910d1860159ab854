import { PassThrough, type Readable, type Writable } from 'node:stream';
import { DEFAULT_SOCKET_PATH } from '@h/sandbox-protocol';
import { BRIDGE_SCRIPT, SANDBOXD_ENTRY, type SandboxStream } from '../transports';
import { SANDBOX_CONTAINER } from './kubernetes-manifests';

/** What the exec stream needs of an exec status (client-node's V1Status). */
export interface ExecStatus {
  status?: string;
  message?: string;
  /** A non-zero exit: reason NonZeroExitCode, the code as a cause `{ reason: 'ExitCode', message: '3' }`. */
  reason?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
}

/** The exit code an exec status reports (null: the exec ended otherwise, e.g. the pod went away). */
export function exitCodeOf(status: ExecStatus): number | null {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  return cause?.message !== undefined && /^\d+$/.test(cause.message) ? Number(cause.message) : null;
}

/**
 * The shape of client-node's `Exec.exec` (no TTY): the command's stdin/stdout/stderr as streams,
 * resolving once the exec's WebSocket is open. Injected, so the stream adapter is tested without a
 * cluster and client-node (an ES module) is loaded only by the real API (kubernetes-api.ts).
 */
export type KubernetesExecFn = (
  namespace: string,
  pod: string,
  container: string,
  command: string[],
  stdout: Writable,
  stderr: Writable,
  stdin: Readable,
  tty: false,
  onStatus: (status: ExecStatus) => void,
) => Promise<{ close(): void; on?(event: 'close', cb: () => void): unknown }>;

/**
 * sandboxd's NDJSON stream over the Kubernetes exec API: the same relay the Docker driver runs
 * through `docker exec` (socat, else sandboxd's Node bridge), with stdin/stdout carried by the API
 * server's exec WebSocket. The client's input ends when the exec ends (status) or the socket closes.
 */
export async function openKubernetesExecStream(exec: KubernetesExecFn, namespace: string, pod: string): Promise<SandboxStream> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stderr.resume();
  const end = () => {
    if (!stdout.writableEnded) stdout.end();
  };
  const ws = await exec(
    namespace,
    pod,
    SANDBOX_CONTAINER,
    ['/bin/sh', '-c', BRIDGE_SCRIPT, 'bridge', DEFAULT_SOCKET_PATH, SANDBOXD_ENTRY],
    stdout,
    stderr,
    stdin,
    false,
    end,
  );
  ws.on?.('close', end);
  return {
    input: stdout,
    output: stdin,
    dispose: () => {
      stdin.destroy();
      end();
      ws.close();
    },
  };
}
