import type * as net from 'node:net';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type Docker from 'dockerode';
import { AppException } from '@h/http';
import { WORKSPACE_ROOT } from '@h/sandbox-protocol';
import type { SandboxRecord } from '@h/sandbox';
import { runProcess, type ProcessResult } from './git-process';

const READY = 'H-STDIN-READY\n';
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export interface ShellRunOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Relative to the workspace root; default the root. */
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Streams in and out of a workspace's sandbox: `docker exec` with attached stdin/stdout as the
 * sandbox's own user (what H's Docker socket proxy allows: no archive endpoints), or a plain child
 * process in the local driver's directory. Trees travel as tar streams, git objects as bundles; no
 * credential ever goes this way.
 */
export class SandboxShell {
  constructor(
    private readonly record: SandboxRecord,
    private readonly docker: Docker | null,
  ) {}

  /** The workspace root as commands inside see it. */
  get root(): string {
    return this.record.driver === 'local' ? this.record.volume : WORKSPACE_ROOT;
  }

  path(relative: string): string {
    return relative ? `${this.root}/${relative}` : this.root;
  }

  async run(argv: string[], options: ShellRunOptions = {}): Promise<ProcessResult> {
    const cwd = this.path(options.cwd ?? '');
    if (this.record.driver !== 'local' && !this.docker) {
      // Never a host process for a sandbox of another driver: that would run outside its isolation.
      throw new AppException(409, 'DRIVER_UNSUPPORTED', `Bringing files in or out of a ${this.record.driver} sandbox is not supported yet; use the file API or the agent.`);
    }
    if (this.record.driver === 'local' || !this.docker) {
      return runProcess(argv[0], argv.slice(1), { cwd, env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: this.root, ...options.env }, stdin: options.stdin, stdout: options.stdout, timeoutMs: options.timeoutMs });
    }
    const container = this.docker.getContainer(this.record.containerId ?? this.record.name);
    // Input sent before the engine attached the process's stdin is lost (bytes and the half-close
    // alike, seen with Engine 20.10): with stdin the command first prints READY on stderr, and the
    // input flows only after it arrived.
    const cmd = options.stdin ? ['/bin/sh', '-c', `printf '${READY}' >&2; exec "$@"`, 'sh', ...argv] : argv;
    const exec = await container.exec({
      Cmd: cmd,
      AttachStdin: !!options.stdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      WorkingDir: cwd,
      Env: Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
    });
    const stream = (await exec.start({ hijack: true, stdin: !!options.stdin })) as unknown as net.Socket;
    const stdout = options.stdout ?? new PassThrough();
    const collected: Buffer[] = [];
    if (!options.stdout) stdout.on('data', (c: Buffer) => collected.push(c));
    const stderr = new PassThrough();
    let err = '';
    let ready: () => void = () => undefined;
    const attached = new Promise<void>((resolve) => (ready = resolve));
    let waitingForReady = !!options.stdin;
    stderr.on('data', (c: Buffer) => {
      let text = c.toString();
      if (waitingForReady) {
        err += text;
        if (!err.startsWith(READY)) return;
        text = err.slice(READY.length);
        err = '';
        waitingForReady = false;
        ready();
      }
      if (err.length < 64 * 1024) err += text;
    });
    this.docker.modem.demuxStream(stream, stdout, stderr);
    let timedOut = false;
    // Nothing here may hang a request or a job for good.
    const timer = setTimeout(() => ((timedOut = true), stream.destroy()), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if (options.stdin) {
      const input = options.stdin;
      input.on('error', () => stream.destroy());
      void attached.then(() => {
        // Half-close after the input: the process sees EOF on stdin and its output keeps coming.
        input.on('end', () => stream.end());
        input.pipe(stream, { end: false });
      });
    }
    await new Promise<void>((resolve) => {
      stream.once('close', () => resolve());
      stream.once('end', () => resolve());
      stream.once('error', () => resolve());
    });
    clearTimeout(timer);
    if (options.stdout) {
      stdout.end();
      await finished(stdout).catch(() => undefined);
    }
    const info = await exec.inspect();
    return { code: info.ExitCode ?? null, stdout: Buffer.concat(collected), stderr: err, timedOut };
  }

  /** Runs a command and throws with its stderr when it fails. */
  async check(argv: string[], options: ShellRunOptions = {}): Promise<string> {
    const r = await this.run(argv, options);
    if (r.code !== 0) throw new Error(`${argv.slice(0, 3).join(' ')} failed in the sandbox (${r.code}): ${r.stderr.trim().slice(0, 500)}`);
    return r.stdout.toString('utf8');
  }
}
