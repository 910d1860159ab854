import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { KubernetesExecFn } from './kubernetes-exec-stream';
import { spawnKubernetesProcess } from './kubernetes-process';

/**
 * The exec API's semantics on this host: the command runs as a real process with stdio attached,
 * the status comes when it exits (as the API server reports it: Success, or NonZeroExitCode with
 * the code as a cause). What runs is exactly what the pod would run (env, setsid, sh).
 */
const localExec: KubernetesExecFn = async (_ns, _pod, _container, command, stdout: Writable, stderr: Writable, stdin: Readable, _tty, onStatus) => {
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  stdin.pipe(child.stdin);
  child.stdout.pipe(stdout, { end: false });
  child.stderr.pipe(stderr, { end: false });
  child.on('close', (code) =>
    onStatus(code === 0 ? { status: 'Success' } : { status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(code) }] } }),
  );
  return { close: () => child.stdin.destroy() };
};

function processState(pid: number): string {
  try {
    // The state is the field after the parenthesised command name.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[0];
  } catch {
    return 'gone';
  }
}

const collect = (s: Readable) => {
  let text = '';
  s.on('data', (c: Buffer) => (text += c.toString()));
  return () => text;
};

describe(spawnKubernetesProcess.name, () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'h-k8s-proc-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should stream stdin to stdout byte for byte, in the given cwd and env, and report the exit code', async () => {
    const p = await spawnKubernetesProcess(localExec, 'ns', 'pod', { argv: ['/bin/sh', '-c', 'pwd; echo "$GREETING"; cat; echo err >&2; exit 3'], env: { GREETING: 'hi there' }, cwd: dir });
    const out = collect(p.stdout);
    const err = collect(p.stderr);
    p.stdin.end('{"line":1}\n');
    expect(await p.exited).toBe(3);
    expect(out()).toBe(`${dir}\nhi there\n{"line":1}\n`);
    expect(err()).toBe('err\n');
  });

  it('should end the whole process group on kill', async () => {
    const p = await spawnKubernetesProcess(localExec, 'ns', 'pod', { argv: ['/bin/sh', '-c', 'sleep 600 </dev/null >/dev/null 2>&1 & echo $!; wait'], cwd: dir });
    const out = collect(p.stdout);
    await new Promise<void>((r) => p.stdout.once('data', () => r()));
    const sleepPid = Number(out().trim());
    await p.kill();
    expect(await p.exited).not.toBe(0);
    // TERM went to the group: the shell's child is gone too (or a zombie not reaped yet), not left running.
    // (The sleep holds no stdio, so the exec's end does not wait for it.)
    const state = processState(sleepPid);
    if (state !== 'gone') process.kill(sleepPid, 'SIGKILL');
    expect(state).toMatch(/^(gone|Z)$/);
  });
});
