import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { FileSandboxService } from '@h/files';
import { fromGitFailure, scmError } from './scm.exception';

export interface GitRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The output was cut at its cap. */
  truncated: boolean;
}

export interface GitOptions {
  stdin?: string;
  /** Output cap for this command (default SCM_OUTPUT_MAX_BYTES). */
  maxOutputBytes?: number;
  /** Take part in the workspace's one-at-a-time queue of writes (anything that takes index.lock). */
  write?: boolean;
}

// Every command gets these: the workspace volume may belong to another uid than the sandbox user
// (safe.directory), names come out unquoted, and nothing waits on a terminal, editor or pager.
const BASE_ARGS = ['-c', 'safe.directory=*', '-c', 'core.quotePath=false', '-c', 'color.ui=false', '-c', 'core.pager=cat'];
const BASE_ENV: Record<string, string> = {
  // Paths are file names, never globs or pathspec magic (`:(top)`, `*.ts`).
  GIT_LITERAL_PATHSPECS: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  GIT_PAGER: 'cat',
  // git's messages are matched to pick the error code; the user sees them as git wrote them.
  LC_ALL: 'C',
  LANGUAGE: 'C',
};

/**
 * git in the workspace's sandbox, through sandboxd's `exec.run` with an argv (never a shell
 * string, so nothing the caller sends is interpreted), cwd the workspace root, bounded in time
 * and output. Writes to one workspace run one at a time, so two clicks never race for index.lock.
 */
@Injectable()
export class GitRunner {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly sandbox: FileSandboxService,
    private readonly config: AppConfig,
  ) {}

  /** Runs git; the result whatever the exit code (only a timeout is refused here). */
  async run(workspaceId: string, args: string[], opts: GitOptions = {}): Promise<GitRun> {
    const work = () => this.exec(workspaceId, args, opts);
    if (!opts.write) return work();
    const prev = this.queues.get(workspaceId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(work);
    this.queues.set(workspaceId, next);
    try {
      return await next;
    } finally {
      if (this.queues.get(workspaceId) === next) this.queues.delete(workspaceId);
    }
  }

  /** Runs git and answers its stdout; a non-zero exit becomes the caller's 4xx with git's words. */
  async ok(workspaceId: string, args: string[], opts: GitOptions & { refNotFound?: boolean } = {}): Promise<GitRun> {
    const r = await this.run(workspaceId, args, opts);
    if (r.exitCode !== 0) throw fromGitFailure(r.stderr, r.stdout, opts);
    return r;
  }

  private async exec(workspaceId: string, args: string[], opts: GitOptions): Promise<GitRun> {
    const env = this.config.env;
    const timeoutMs = env.SCM_COMMAND_TIMEOUT_MS;
    const r = await this.sandbox.call(workspaceId, 'exec.run', {
      argv: ['git', ...BASE_ARGS, ...args],
      cwd: '.',
      env: BASE_ENV,
      timeoutMs,
      maxOutputBytes: opts.maxOutputBytes ?? env.SCM_OUTPUT_MAX_BYTES,
      stdin: opts.stdin,
    });
    if (r.timedOut) {
      throw scmError('GIT_TIMEOUT', `git ${subcommand(args)} did not finish within ${timeoutMs / 1000} s (SCM_COMMAND_TIMEOUT_MS) and was stopped. A hook may be waiting for input, or the repository is very large: try it in a terminal.`);
    }
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, truncated: r.truncated };
  }
}

/** The git subcommand of an argv (`commit` of `-c user.name=… commit -F -`), for messages. */
function subcommand(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else if (!args[i].startsWith('-')) return args[i];
  }
  return '';
}
