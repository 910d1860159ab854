import { Injectable } from '@nestjs/common';
import type { GitBranch, GitBranchList, GitCommitResult, GitLog, GitPathsRequest, GitStatus, GitStatusInitialized } from '@h/contracts';
import { UserRepository } from '@h/db';
import { normalizeEntryPath } from '@h/files';
import { AppException } from '@h/http';
import { validBranchName, validStartPoint } from './git-ref-name';
import { GitRunner } from './git-runner.service';
import { parseGitStatus } from './git-status-parse';
import { fromGitFailure } from './scm.exception';

const US = '\x1f';
const RS = '\x1e';

/**
 * Source Control over the workspace's own repository (its root is the workspace root), with git
 * run in the sandbox (GitRunner). Paths are checked on this side with the file API's rules and
 * handed to git as literal pathspecs; branch names with git's ref rules (git-ref-name.ts).
 */
@Injectable()
export class ScmService {
  constructor(
    private readonly git: GitRunner,
    private readonly users: UserRepository,
  ) {}

  async status(workspaceId: string): Promise<GitStatus> {
    // --no-optional-locks: a status never takes index.lock (it would race a terminal's git).
    const r = await this.git.run(workspaceId, ['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
    if (r.exitCode !== 0) {
      if (/not a git repository/i.test(r.stderr)) return { initialized: false };
      throw fromGitFailure(r.stderr, r.stdout);
    }
    return parseGitStatus(r.stdout, r.truncated);
  }

  /** The repository's status; a workspace without one is 409 NOT_A_REPOSITORY. */
  async repoStatus(workspaceId: string): Promise<GitStatusInitialized> {
    const s = await this.status(workspaceId);
    if (!s.initialized) throw fromGitFailure('not a git repository', '');
    return s;
  }

  /** `git init` at the workspace root (again on an existing repository changes nothing). */
  async init(workspaceId: string): Promise<GitStatus> {
    await this.git.ok(workspaceId, ['-c', 'init.defaultBranch=main', 'init', '-q'], { write: true });
    return this.status(workspaceId);
  }

  async stage(workspaceId: string, body: GitPathsRequest): Promise<GitStatus> {
    const paths = this.targets(body, 'stage');
    // -A: a deleted file is staged as deleted, like a changed one.
    await this.git.ok(workspaceId, paths ? ['add', '-A', '--', ...paths] : ['add', '-A'], { write: true });
    return this.status(workspaceId);
  }

  async unstage(workspaceId: string, body: GitPathsRequest): Promise<GitStatus> {
    const paths = this.targets(body, 'unstage');
    const s = await this.repoStatus(workspaceId);
    // Before the first commit there is no HEAD to restore from: unstaging is leaving the index.
    const args = s.head
      ? paths
        ? ['restore', '--staged', '--', ...paths]
        : ['reset', '-q']
      : ['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', ...(paths ?? ['.'])];
    await this.git.ok(workspaceId, args, { write: true });
    return this.status(workspaceId);
  }

  /** Throws away working-tree changes: tracked files go back to the index, untracked ones are deleted. */
  async discard(workspaceId: string, body: GitPathsRequest): Promise<GitStatus> {
    if (body.all) throw AppException.badRequest('VALIDATION_FAILED', 'Discard takes the paths to throw away (paths), not all: name each file so nothing goes by accident.');
    const paths = this.targets(body, 'discard') as string[];
    const s = await this.repoStatus(workspaceId);
    const untracked = new Set(s.untracked.map((f) => f.path));
    const clean = paths.filter((p) => untracked.has(p));
    const restore = paths.filter((p) => !untracked.has(p));
    if (restore.length) await this.git.ok(workspaceId, ['restore', '--worktree', '--', ...restore], { write: true });
    if (clean.length) await this.git.ok(workspaceId, ['clean', '-f', '-q', '--', ...clean], { write: true });
    return this.status(workspaceId);
  }

  /** A commit of the index, author and committer the H user (their account's name and email). */
  async commit(workspaceId: string, userId: string, message: string, amend: boolean): Promise<GitCommitResult> {
    if (!message.trim()) throw AppException.badRequest('VALIDATION_FAILED', 'message must say something: a commit message cannot be empty.');
    const user = await this.users.findById(userId);
    if (!user) throw AppException.notFound('User');
    // git refuses "<", ">" and newlines in a name; an account name may hold them.
    const name = user.name.replace(/[<>\n\r\0]/g, '').trim() || user.email.split('@')[0];
    const identity = ['-c', `user.name=${name}`, '-c', `user.email=${user.email.replace(/[<>\n\r\0]/g, '')}`];
    // The message goes in on stdin (-F -): any text, no argv length limit, never read by a shell.
    await this.git.ok(workspaceId, [...identity, 'commit', '-q', '-F', '-', ...(amend ? ['--amend'] : [])], { write: true, stdin: message });
    const r = await this.git.ok(workspaceId, ['log', '-1', `--format=%H${US}%s${US}%D`]);
    const [hash, subject, decoration] = r.stdout.replace(/\n$/, '').split(US);
    const branch = /HEAD -> ([^,]+)/.exec(decoration ?? '')?.[1] ?? null;
    return { hash, subject, branch };
  }

  async branches(workspaceId: string): Promise<GitBranchList> {
    const r = await this.git.ok(workspaceId, ['for-each-ref', `--format=%(refname)${US}%(objectname)${US}%(upstream:short)${US}%(HEAD)${US}%(symref)`, 'refs/heads', 'refs/remotes']);
    const branches: GitBranch[] = [];
    let current: string | null = null;
    for (const line of r.stdout.split('\n')) {
      if (!line) continue;
      const [ref, commit, upstream, head, symref] = line.split(US);
      // refs/remotes/origin/HEAD is an alias of another remote branch, not a branch.
      if (symref) continue;
      const remote = ref.startsWith('refs/remotes/');
      const name = ref.replace(/^refs\/(heads|remotes)\//, '');
      const isCurrent = head === '*';
      if (isCurrent) current = name;
      branches.push({ name, remote, commit, upstream: upstream || null, current: isCurrent });
    }
    if (!current) {
      // Before the first commit the branch exists only as HEAD's target.
      const head = await this.git.run(workspaceId, ['symbolic-ref', '--short', '-q', 'HEAD']);
      if (head.exitCode === 0) current = head.stdout.trim() || null;
    }
    return { current, branches };
  }

  async createBranch(workspaceId: string, body: { name: string; from?: string; checkout?: boolean }): Promise<GitBranchList> {
    const name = validBranchName(body.name, 'name');
    const from = body.from === undefined ? [] : [validStartPoint(body.from)];
    const args = body.checkout === false ? ['branch', name, ...from] : ['switch', '-q', '-c', name, ...from];
    await this.git.ok(workspaceId, args, { write: true, refNotFound: true });
    return this.branches(workspaceId);
  }

  /** Switches branches; local changes a switch would overwrite are 409 GIT_CONFLICT with git's list. */
  async checkout(workspaceId: string, branch: string): Promise<GitStatus> {
    const name = validBranchName(branch);
    await this.git.ok(workspaceId, ['switch', '-q', name], { write: true, refNotFound: true });
    return this.status(workspaceId);
  }

  async log(workspaceId: string, limit: number, skip: number): Promise<GitLog> {
    const r = await this.git.run(workspaceId, ['log', `--format=%H${US}%an${US}%ae${US}%aI${US}%s${RS}`, `--max-count=${limit + 1}`, `--skip=${skip}`]);
    if (r.exitCode !== 0) {
      // A branch before its first commit has no log, which is not an error.
      if (/does not have any commits yet|bad default revision 'HEAD'/i.test(r.stderr)) return { commits: [], hasMore: false };
      throw fromGitFailure(r.stderr, r.stdout);
    }
    const commits = r.stdout
      .split(RS)
      .map((rec) => rec.replace(/^\n/, ''))
      .filter(Boolean)
      .map((rec) => {
        const [hash, author, email, date, subject] = rec.split(US);
        return { hash, author, email, date, subject };
      });
    return { commits: commits.slice(0, limit), hasMore: commits.length > limit };
  }

  /** The request's paths, checked like the file API's (400 on an escape), or null for all: true. */
  private targets(body: GitPathsRequest, what: string): string[] | null {
    if (body.all && body.paths?.length) throw AppException.badRequest('VALIDATION_FAILED', `Send either paths or all: true to ${what}, not both.`);
    if (body.all) return null;
    if (!body.paths?.length) throw AppException.badRequest('VALIDATION_FAILED', `paths must name at least one file to ${what} (or send all: true).`);
    return [...new Set(body.paths.map((p, i) => normalizeEntryPath(p, `paths[${i}]`)))];
  }
}
