import type { Readable, Writable } from 'node:stream';
import { SandboxClient } from '../sandbox-client';
import { openKubernetesExecStream, type ExecStatus, type KubernetesExecFn } from './kubernetes-exec-stream';

/**
 * A stand-in for the API server's exec WebSocket: it answers each NDJSON request written to the
 * command's stdin on its stdout, as sandboxd would, and reports a status when closed.
 */
function fakeExec(calls: { namespace: string; pod: string; container: string; command: string[] }[]) {
  let finish: (s: ExecStatus) => void = () => undefined;
  const exec: KubernetesExecFn = async (namespace, pod, container, command, stdout: Writable, _stderr, stdin: Readable, _tty, onStatus) => {
    calls.push({ namespace, pod, container, command });
    finish = onStatus;
    let buf = '';
    stdin.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const req = JSON.parse(buf.slice(0, nl)) as { id: number; method: string };
        buf = buf.slice(nl + 1);
        stdout.write(`${JSON.stringify({ id: req.id, result: { ok: true, idleMs: 0, inFlight: 0, echo: req.method } })}\n`);
      }
    });
    return { close: () => onStatus({ status: 'Success' }) };
  };
  return { exec, end: (s: ExecStatus) => finish(s) };
}

describe('openKubernetesExecStream', () => {
  it('should run the sandboxd relay in the sandbox container and carry NDJSON both ways', async () => {
    const calls: { namespace: string; pod: string; container: string; command: string[] }[] = [];
    const { exec } = fakeExec(calls);
    const stream = await openKubernetesExecStream(exec, 'h-sandboxes', 'h-ws-1');
    const client = new SandboxClient(stream.input, stream.output, () => stream.dispose?.());
    const answer = await client.call('health', {});
    expect(answer).toMatchObject({ echo: 'health' });
    expect(calls).toEqual([{ namespace: 'h-sandboxes', pod: 'h-ws-1', container: 'sandbox', command: expect.arrayContaining(['/bin/sh', '-c', 'bridge', '/run/sandboxd/sandboxd.sock']) }]);
    client.close();
  });

  it('should close the client when the exec ends (pod stopped, daemon gone)', async () => {
    const { exec, end } = fakeExec([]);
    const stream = await openKubernetesExecStream(exec, 'ns', 'pod');
    const client = new SandboxClient(stream.input, stream.output, () => stream.dispose?.());
    await client.call('health', {});
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    end({ status: 'Failure', message: 'container not running' });
    await closed;
    expect(client.closed).toBe(true);
  });
});
