import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { ExecParams, ExecResult } from '@h/sandbox-protocol';
import { diskFullHint } from './disk-budget';
import { appError, fail } from './errors';
import type { PathResolver } from './path-resolver';
import { killProcessGroup, sanitizedEnv, withRaisedOomScore } from './process-utils';

const DEFAULT_MAX_OUTPUT = 1024 * 1024;
const HARD_MAX_OUTPUT = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export class ExecService {
  constructor(private readonly paths: PathResolver) {}

  async run(p: ExecParams, signal: AbortSignal): Promise<ExecResult> {
    const argv = p.argv?.length ? p.argv : p.command ? ['/bin/sh', '-c', p.command] : null;
    if (!argv || argv.some((a) => typeof a !== 'string')) fail('INVALID_ARGUMENT', 'give command or argv');
    const cwd = await this.paths.resolve(p.cwd || '.');
    const st = await stat(cwd.abs).catch(() => null);
    if (!st) fail('NOT_FOUND', `${p.cwd}: no such directory`);
    if (!st.isDirectory()) fail('NOT_DIRECTORY', `${p.cwd}: not a directory`);
    const maxOut = Math.min(Math.max(0, p.maxOutputBytes ?? DEFAULT_MAX_OUTPUT), HARD_MAX_OUTPUT);
    const timeoutMs = p.timeoutMs && p.timeoutMs > 0 ? p.timeoutMs : DEFAULT_TIMEOUT_MS;
    const started = performance.now();
    const [cmd, ...args] = withRaisedOomScore(argv);

    return new Promise<ExecResult>((resolve, reject) => {
      const child = spawn(cmd, args, {
        cwd: cwd.abs,
        env: sanitizedEnv(p.env),
        // Own process group, so timeout/cancel kills everything it started, fork bombs included.
        detached: true,
        stdio: [p.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let captured = 0;
      let truncated = false;
      let timedOut = false;
      let cancelled = false;
      const take = (into: Buffer[]) => (b: Buffer) => {
        const room = maxOut - captured;
        if (b.length > room) {
          truncated = true;
          if (room > 0) into.push(b.subarray(0, room));
          captured = maxOut;
        } else {
          into.push(b);
          captured += b.length;
        }
      };
      child.stdout?.on('data', take(out));
      child.stderr?.on('data', take(err));
      if (p.stdin !== undefined && child.stdin) {
        child.stdin.on('error', () => undefined); // the program may exit without reading
        child.stdin.end(p.stdin);
      }
      const stop = (why: 'timeout' | 'cancel') => {
        if (why === 'timeout') timedOut = true;
        else cancelled = true;
        if (child.pid) void killProcessGroup(child.pid);
      };
      const timer = setTimeout(() => stop('timeout'), timeoutMs);
      const onAbort = () => stop('cancel');
      signal.addEventListener('abort', onAbort, { once: true });
      child.on('error', (e) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') reject(appError('NOT_FOUND', `${argv[0]}: command not found`));
        else reject(appError('IO_ERROR', `cannot start process: ${code ?? e.message}`));
      });
      child.on('exit', () => {
        // Background children still holding stdout would keep 'close' from firing forever; an
        // exec is one command, so whatever it left running in its group goes with it.
        if (child.pid) void killProcessGroup(child.pid);
      });
      child.on('close', (exitCode, sig) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const stdout = Buffer.concat(out).toString('utf8');
        const stderr = Buffer.concat(err).toString('utf8');
        resolve({
          exitCode,
          signal: sig,
          stdout,
          stderr: exitCode === 0 ? stderr : stderr + diskFullHint(stdout, stderr),
          timedOut,
          cancelled,
          truncated,
          durationMs: Math.round(performance.now() - started),
        });
      });
    });
  }
}
