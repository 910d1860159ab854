import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { pickHostEnv } from '@h/config';
import { lineSplitter } from './git-output';

export interface ProcessResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  stdin?: Readable;
  /** Where stdout goes instead of being collected (archives, bundles). */
  stdout?: Writable;
  onStderrLine?: (line: string) => void;
  /** Most stdout bytes collected (the rest is dropped). */
  maxStdout?: number;
}

const STDERR_KEEP = 64 * 1024;

/**
 * Host-side git, isolated from the host's own git setup: no system or global config (credential
 * helpers there must not answer for a workspace), no terminal prompts, HOME in a scratch dir.
 * Callers add the credential's variables (git-credential.ts).
 */
export function gitBaseEnv(home: string): Record<string, string> {
  return {
    ...pickHostEnv(['PATH', 'LANG', 'LC_ALL']),
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
  };
}

/** Only these transports may reach a remote (no ext::, file:// or local paths from a user's URL). */
export const REMOTE_PROTOCOLS = { GIT_ALLOW_PROTOCOL: 'https:http:ssh', GIT_PROTOCOL_FROM_USER: '0' };

export function runProcess(command: string, args: string[], options: RunOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.timeoutMs)
      : null;
    const split = lineSplitter((line) => options.onStderrLine?.(line));
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < STDERR_KEEP) stderr += c.toString();
      split(c);
    });
    if (options.stdout) child.stdout.pipe(options.stdout);
    else
      child.stdout.on('data', (c: Buffer) => {
        if (outBytes < (options.maxStdout ?? 16 * 1024 * 1024)) out.push(c);
        outBytes += c.length;
      });
    if (options.stdin) {
      options.stdin.on('error', () => child.kill('SIGKILL'));
      child.stdin.on('error', () => undefined);
      options.stdin.pipe(child.stdin);
    } else child.stdin.end();
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr, timedOut });
    });
  });
}
