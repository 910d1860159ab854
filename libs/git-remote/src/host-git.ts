import { Injectable } from '@nestjs/common';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '@h/config';
import { credentialEnv } from './git-credential';
import type { GitRemoteAccess } from './git-credential.store';
import { describeGitFailure, type GitFailure } from './git-output';
import { gitBaseEnv, REMOTE_PROTOCOLS, runProcess, type ProcessResult, type RunOptions } from './git-process';
import { assertRemoteHostAllowed, GitUrlError } from './git-url';
import { knownHostsFile, workspaceGitDir } from './git-paths';

export class GitRemoteError extends Error {
  constructor(readonly failure: GitFailure) {
    super(failure.message);
  }
}

/**
 * Runs git on the host against a workspace's remote with its credential in the environment of
 * that one process (and a key file in a scratch dir removed afterwards). Failures become
 * GitRemoteError with a message that says what to check, credentials scrubbed.
 */
@Injectable()
export class HostGit {
  constructor(private readonly config: AppConfig) {}

  get timeoutMs(): number {
    return this.config.env.GIT_REMOTE_TIMEOUT_SECONDS * 1000;
  }

  failure(result: ProcessResult, access: GitRemoteAccess): GitRemoteError {
    return new GitRemoteError(
      describeGitFailure(result.stderr, {
        host: access.url.host,
        branch: access.branch,
        ssh: access.url.transport === 'ssh',
        timedOut: result.timedOut,
        timeoutSeconds: this.config.env.GIT_REMOTE_TIMEOUT_SECONDS,
      }),
    );
  }

  /** git without a remote (bundles, local refs): no credential, no protocol restriction needed. */
  async local(args: string[], options: RunOptions = {}): Promise<ProcessResult> {
    const home = await mkdtemp(join(tmpdir(), 'h-git-'));
    try {
      return await runProcess('git', args, { ...options, env: { ...gitBaseEnv(home), ...options.env }, timeoutMs: options.timeoutMs ?? this.timeoutMs });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }

  /** Runs `git <args(url)>` against the remote; throws GitRemoteError when git fails. */
  async remote(
    workspaceId: string,
    access: GitRemoteAccess,
    args: (url: string) => string[],
    options: RunOptions & { acceptFailure?: boolean } = {},
  ): Promise<ProcessResult> {
    try {
      await assertRemoteHostAllowed(access.url.host, this.config.env.GIT_REMOTE_ALLOW_PRIVATE_HOSTS);
    } catch (e) {
      if (e instanceof GitUrlError) throw new GitRemoteError({ kind: 'host', message: e.message });
      throw e;
    }
    const scratch = await mkdtemp(join(tmpdir(), 'h-git-'));
    try {
      await mkdir(workspaceGitDir(this.config, workspaceId), { recursive: true, mode: 0o700 });
      const env = {
        ...gitBaseEnv(scratch),
        ...REMOTE_PROTOCOLS,
        ...(await credentialEnv(access.credential, scratch, knownHostsFile(this.config, workspaceId))),
        ...options.env,
      };
      const result = await runProcess('git', args(access.url.url), { ...options, env, timeoutMs: this.timeoutMs });
      if (result.code !== 0 && !options.acceptFailure) throw this.failure(result, access);
      return result;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}
