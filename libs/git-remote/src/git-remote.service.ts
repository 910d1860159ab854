import { Injectable, Logger } from '@nestjs/common';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitRefUpdate, GitRemoteResult } from '@h/contracts';
import { AppConfig } from '@h/config';
import { UserRepository, WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import type { AccessGrant, Principal } from '@h/identity';
import { BRANCH_PATTERN, GitCredentialStore, type GitRemoteAccess } from './git-credential.store';
import { mirrorDir } from './git-paths';
import { GitRemoteError, HostGit } from './host-git';
import type { SandboxShell } from './sandbox-shell';
import { SandboxShells } from './sandbox-shells';

/** Where bundles pass through inside the sandbox's repository (git ignores unknown files in .git). */
const TRANSFER_DIR = '.git/h-transfer';
const SANDBOX_GIT_ENV = { GIT_TERMINAL_PROMPT: '0' };

type RefMap = Map<string, string>;

/** `%(objectname) %(refname) %(symref)` lines; symbolic refs (origin/HEAD) follow their target and are left out. */
function parseRefs(text: string): RefMap {
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [sha, ref, symref] = line.trim().split(/\s+/);
    if (sha && ref && !symref) refs.set(ref, sha);
  }
  return refs;
}

function diffRefs(before: RefMap, after: RefMap): GitRefUpdate[] {
  const out: GitRefUpdate[] = [];
  for (const [ref, to] of after) if (before.get(ref) !== to) out.push({ ref, from: before.get(ref) ?? null, to });
  for (const [ref, from] of before) if (!after.has(ref)) out.push({ ref, from, to: null });
  return out.sort((a, b) => a.ref.localeCompare(b.ref));
}

// Fetch, pull and push for the SCM panel with the credential on the host only: a bare mirror per
// workspace under H_DATA_DIR/git talks to the remote; objects move between it and the sandbox's
// repository as `git bundle` files streamed through docker exec. One operation per workspace at a
// time in this process.
@Injectable()
export class GitRemoteService {
  private readonly logger = new Logger(GitRemoteService.name);
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(
    private readonly config: AppConfig,
    private readonly workspaces: WorkspaceRepository,
    private readonly users: UserRepository,
    private readonly shells: SandboxShells,
    private readonly credentials: GitCredentialStore,
    private readonly git: HostGit,
  ) {}

  fetch(access: AccessGrant, id: string): Promise<GitRemoteResult> {
    return this.exclusive(id, async () => {
      const { shell, remote } = await this.prepare(access, id);
      const updated = await this.fetchInto(id, shell, remote);
      const head = await this.head(shell);
      return { operation: 'fetch', branch: null, updated, merge: null, head, message: updated.length ? `Fetched ${updated.length} updated ref(s) from origin.` : 'Already up to date with origin.' };
    });
  }

  pull(principal: Principal, access: AccessGrant, id: string): Promise<GitRemoteResult> {
    return this.exclusive(id, async () => {
      const { shell, remote } = await this.prepare(access, id);
      const branch = await this.currentBranch(shell);
      const updated = await this.fetchInto(id, shell, remote);
      const upstream = `refs/remotes/origin/${branch}`;
      if ((await shell.run(['git', 'rev-parse', '--verify', '--quiet', upstream])).code !== 0) {
        throw AppException.conflict('GIT_NO_REMOTE', `origin has no branch "${branch}" to pull; push it first.`);
      }
      const before = await this.head(shell);
      const who = await this.users.findById(principal.userId);
      const identity = { GIT_AUTHOR_NAME: who?.name || 'H user', GIT_AUTHOR_EMAIL: who?.email ?? 'h@example.org', GIT_COMMITTER_NAME: who?.name || 'H user', GIT_COMMITTER_EMAIL: who?.email ?? 'h@example.org' };
      const merged = await shell.run(['git', 'merge', '--no-edit', upstream], { env: { ...SANDBOX_GIT_ENV, ...identity } });
      const out = merged.stdout.toString() + merged.stderr;
      if (merged.code !== 0) {
        if (/would be overwritten|commit your changes or stash/i.test(out)) {
          throw AppException.conflict('GIT_LOCAL_CHANGES', `Pulling ${branch} would overwrite uncommitted changes: commit or stash them, then pull again.`);
        }
        const conflicted = (await shell.run(['git', 'diff', '--name-only', '--diff-filter=U'])).stdout.toString().trim().split('\n').filter(Boolean);
        if (conflicted.length) {
          throw AppException.conflict(
            'GIT_MERGE_CONFLICT',
            `Pulling origin/${branch} into ${branch} conflicts in ${conflicted.slice(0, 10).join(', ')}${conflicted.length > 10 ? '…' : ''}: resolve the conflicts and commit, or abort the merge (git merge --abort).`,
          );
        }
        throw AppException.conflict('CONFLICT', `git merge failed: ${out.trim().slice(0, 300)}`);
      }
      const head = await this.head(shell);
      const merge = before === head ? 'up-to-date' : /fast-forward/i.test(out) ? 'fast-forward' : 'merge';
      const message = merge === 'up-to-date' ? `${branch} is up to date with origin.` : `Pulled origin/${branch} into ${branch} (${merge}).`;
      return { operation: 'pull', branch, updated, merge, head, message };
    });
  }

  push(access: AccessGrant, id: string, body: { branch?: string; setUpstream?: boolean }): Promise<GitRemoteResult> {
    return this.exclusive(id, async () => {
      const { shell, remote } = await this.prepare(access, id);
      const branch = body.branch ?? (await this.currentBranch(shell));
      if (!BRANCH_PATTERN.test(branch)) throw AppException.badRequest('VALIDATION_FAILED', 'branch: not a valid branch name.');
      const local = await shell.run(['git', 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
      if (local.code !== 0) throw AppException.conflict('CONFLICT', `There is no local branch "${branch}" with a commit to push; commit first.`);
      const sha = local.stdout.toString().trim();
      const scratch = await mkdtemp(join(tmpdir(), 'h-push-'));
      try {
        const bundle = join(scratch, 'push.bundle');
        await shell.check(['mkdir', '-p', TRANSFER_DIR]);
        await shell.check(['git', 'bundle', 'create', '--quiet', `${TRANSFER_DIR}/push.bundle`, `refs/heads/${branch}`]);
        await shell.check(['cat', `${TRANSFER_DIR}/push.bundle`], { stdout: createWriteStream(bundle) });
        await shell.run(['rm', '-f', `${TRANSFER_DIR}/push.bundle`]);
        const mirror = await this.mirror(id);
        const pushRef = `refs/h-push/${branch}`;
        const fetched = await this.git.local(['-C', mirror, 'fetch', '--quiet', bundle, `+refs/heads/${branch}:${pushRef}`]);
        if (fetched.code !== 0) throw new Error(`could not read the push bundle: ${fetched.stderr.slice(0, 300)}`);
        const r = await this.git
          .remote(id, remote, (url) => ['-C', mirror, 'push', '--porcelain', url, `${pushRef}:refs/heads/${branch}`], { acceptFailure: true })
          .catch((e) => {
            throw this.remoteFailure(e);
          });
        // --porcelain: one line per ref, "<flag>\t<from>:<to>\t<summary>"; "!" is a refusal.
        const line = r.stdout.toString().split('\n').find((l) => l.includes(`:refs/heads/${branch}`)) ?? '';
        if (line.startsWith('!')) throw rejected(branch);
        if (r.code !== 0) throw this.remoteFailure(this.git.failure(r, remote));
        const from = /^[ +]\t[^\t]+\t([0-9a-f]+)\.\.\.?[0-9a-f]+/.exec(line)?.[1] ?? null;
        await shell.check(['git', 'update-ref', `refs/remotes/origin/${branch}`, sha]);
        if (body.setUpstream) await this.setUpstream(shell, remote, branch);
        const upToDate = line.startsWith('=');
        return {
          operation: 'push',
          branch,
          updated: upToDate ? [] : [{ ref: `refs/heads/${branch}`, from, to: sha }],
          merge: null,
          head: await this.head(shell),
          message: upToDate ? `origin already has ${branch} at ${sha.slice(0, 7)}.` : `Pushed ${branch} to origin (${sha.slice(0, 7)}).`,
        };
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    });
  }

  private async setUpstream(shell: SandboxShell, remote: GitRemoteAccess, branch: string): Promise<void> {
    // An archive-made repository may have no origin yet: give it the URL (never a credential).
    if ((await shell.run(['git', 'remote', 'get-url', 'origin'])).code !== 0) await shell.check(['git', 'remote', 'add', 'origin', remote.url.url]);
    await shell.check(['git', 'config', `branch.${branch}.remote`, 'origin']);
    await shell.check(['git', 'config', `branch.${branch}.merge`, `refs/heads/${branch}`]);
  }

  /** Mirror ← remote, then the mirror's branches and tags → the sandbox's refs/remotes/origin/* and tags. */
  private async fetchInto(id: string, shell: SandboxShell, remote: GitRemoteAccess): Promise<GitRefUpdate[]> {
    const mirror = await this.mirror(id);
    await this.git
      .remote(id, remote, (url) => ['-C', mirror, 'fetch', '--prune', '--quiet', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'])
      .catch((e) => {
        throw this.remoteFailure(e);
      });
    const before = parseRefs((await shell.run(['git', 'for-each-ref', '--format=%(objectname) %(refname) %(symref)', 'refs/remotes/origin'])).stdout.toString());
    const heads = (await this.git.local(['-C', mirror, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags'])).stdout.toString().trim();
    if (!heads) {
      // An empty remote: nothing to bring, but branches it deleted go.
      for (const ref of before.keys()) await shell.run(['git', 'update-ref', '-d', ref]);
      return diffRefs(before, new Map());
    }
    const scratch = await mkdtemp(join(tmpdir(), 'h-fetch-'));
    try {
      const bundle = join(scratch, 'fetch.bundle');
      const made = await this.git.local(['-C', mirror, 'bundle', 'create', '--quiet', bundle, '--branches', '--tags']);
      if (made.code !== 0) throw new Error(`git bundle failed: ${made.stderr.slice(0, 300)}`);
      await shell.check(['mkdir', '-p', TRANSFER_DIR]);
      await shell.check(['sh', '-c', `cat > ${TRANSFER_DIR}/fetch.bundle`], { stdin: createReadStream(bundle) });
      const fetched = await shell.run(['git', 'fetch', '--prune', '--quiet', '--no-write-fetch-head', `${TRANSFER_DIR}/fetch.bundle`, '+refs/heads/*:refs/remotes/origin/*', 'refs/tags/*:refs/tags/*'], {
        env: SANDBOX_GIT_ENV,
      });
      await shell.run(['rm', '-f', `${TRANSFER_DIR}/fetch.bundle`]);
      if (fetched.code !== 0) throw new Error(`git fetch of the bundle failed in the sandbox: ${fetched.stderr.slice(0, 300)}`);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    const after = parseRefs((await shell.run(['git', 'for-each-ref', '--format=%(objectname) %(refname) %(symref)', 'refs/remotes/origin'])).stdout.toString());
    return diffRefs(before, after);
  }

  private async mirror(id: string): Promise<string> {
    const dir = mirrorDir(this.config, id);
    if (!(await stat(join(dir, 'HEAD')).then(() => true, () => false))) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const r = await this.git.local(['init', '--bare', '--quiet', dir]);
      if (r.code !== 0) throw new Error(`git init --bare failed: ${r.stderr}`);
    }
    return dir;
  }

  private async prepare(access: AccessGrant, id: string): Promise<{ shell: SandboxShell; remote: GitRemoteAccess }> {
    const workspace = await this.workspaces.findById(id);
    if (!workspace || workspace.teamId !== access.teamId) throw AppException.notFound('Workspace');
    const remote = await this.credentials.access(id);
    if (!remote) throw AppException.conflict('GIT_NO_REMOTE', 'This workspace has no git remote; set one (PUT /api/v1/workspaces/{id}/git/remote) first.');
    if (!remote.clonedAt) throw AppException.conflict('WORKSPACE_NOT_READY', `The workspace is ${workspace.status} and its clone has not finished; wait until it is ready (or retry its setup).`);
    const shell = await this.shells.open(workspace);
    if ((await shell.run(['git', 'rev-parse', '--git-dir'])).code !== 0) {
      throw AppException.conflict('GIT_NO_REMOTE', 'The workspace has no git repository; run git init (or clone) first.');
    }
    return { shell, remote };
  }

  private async currentBranch(shell: SandboxShell): Promise<string> {
    const r = await shell.run(['git', 'symbolic-ref', '--quiet', '--short', 'HEAD']);
    if (r.code !== 0) throw AppException.conflict('CONFLICT', 'HEAD is detached; switch to a branch first.');
    return r.stdout.toString().trim();
  }

  private async head(shell: SandboxShell): Promise<string | null> {
    const r = await shell.run(['git', 'rev-parse', '--verify', '--quiet', 'HEAD']);
    return r.code === 0 ? r.stdout.toString().trim() : null;
  }

  private remoteFailure(e: unknown): unknown {
    if (e instanceof GitRemoteError) return new AppException(422, 'GIT_REMOTE_FAILED', e.failure.message);
    return e;
  }

  private async exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.busy.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    this.busy.set(id, next);
    try {
      return await next;
    } finally {
      if (this.busy.get(id) === next) this.busy.delete(id);
    }
  }
}

function rejected(branch: string): AppException {
  return AppException.conflict('GIT_PUSH_REJECTED', `origin refused ${branch}: it has commits this workspace does not have. Pull first, then push again.`);
}
