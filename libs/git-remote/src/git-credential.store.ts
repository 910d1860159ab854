import { Injectable } from '@nestjs/common';
import type { GitRemoteStatus, GitWorkspaceSource } from '@h/contracts';
import { AppConfig } from '@h/config';
import { GitRemoteInput, WorkspaceGitRemoteRepository } from '@h/db';
import { AppException } from '@h/http';
import { SecretBoxService } from '@h/providers';
import { GIT_BRANCH_PATTERN, WorkspaceSourceStore } from '@h/workspaces';
import { DEFAULT_TOKEN_USERNAME, GitCredential, privateKeyProblem } from './git-credential';
import { assertRemoteHostAllowed, GitUrl, GitUrlError, parseGitUrl } from './git-url';

/** Binds a sealed credential to its workspace: a row copied to another workspace does not decrypt. */
const aadFor = (workspaceId: string) => `git-remote:${workspaceId}`;

interface CheckedRemote {
  input: Omit<GitRemoteInput, 'secret'>;
  secret: string | null;
}

/** A remote with what git needs to reach it (host side only). */
export interface GitRemoteAccess {
  url: GitUrl;
  branch: string | null;
  credential: GitCredential;
}

/** The DTOs' branch rule, for branches that do not come through a DTO (the sandbox's current branch). */
export const BRANCH_PATTERN = new RegExp(GIT_BRANCH_PATTERN);

// A workspace's git remote: checked, stored with its credential sealed by the master key, read back
// only by host-side git. Every answer about it is status (kind, user name, URL), never the secret.
@Injectable()
export class GitCredentialStore extends WorkspaceSourceStore {
  constructor(
    private readonly remotes: WorkspaceGitRemoteRepository,
    private readonly box: SecretBoxService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async check(source: Omit<GitWorkspaceSource, 'kind'>): Promise<CheckedRemote> {
    let url: GitUrl;
    try {
      url = parseGitUrl(source.url);
      await assertRemoteHostAllowed(url.host, this.config.env.GIT_REMOTE_ALLOW_PRIVATE_HOSTS);
    } catch (e) {
      if (e instanceof GitUrlError) throw AppException.badRequest('INVALID_GIT_URL', e.message);
      throw e;
    }
    if (source.branch !== undefined && !BRANCH_PATTERN.test(source.branch)) {
      throw AppException.badRequest('VALIDATION_FAILED', 'branch: not a valid branch name.');
    }
    const branch = source.branch ?? null;
    if (url.transport === 'ssh') {
      if (source.token) throw AppException.badRequest('VALIDATION_FAILED', 'An ssh URL authenticates with a deploy key (privateKey), not a token; use an https URL for a token.');
      if (source.privateKey) {
        const problem = privateKeyProblem(source.privateKey);
        if (problem) throw AppException.badRequest('INVALID_SSH_KEY', problem);
      }
      return {
        input: { url: url.url, branch, authKind: source.privateKey ? 'ssh_key' : 'none', username: url.username },
        secret: source.privateKey ? JSON.stringify({ privateKey: source.privateKey.trim() }) : null,
      };
    }
    if (source.privateKey) throw AppException.badRequest('VALIDATION_FAILED', 'A deploy key needs an ssh URL (git@host:team/repo.git); for https give a token.');
    const username = source.username ?? url.username ?? null;
    return {
      input: { url: url.url, branch, authKind: source.token ? 'token' : 'none', username: source.token ? (username ?? DEFAULT_TOKEN_USERNAME) : username },
      secret: source.token ? JSON.stringify({ token: source.token }) : null,
    };
  }

  async save(workspaceId: string, checked: unknown): Promise<void> {
    await this.store(workspaceId, checked as CheckedRemote);
  }

  /** `existingWorkspace`: set on a workspace that already has its files (PUT …/git/remote), nothing to clone. */
  async store(workspaceId: string, checked: CheckedRemote, existingWorkspace = false): Promise<GitRemoteStatus<Date>> {
    const secret = checked.secret ? this.box.seal(checked.secret, aadFor(workspaceId)) : null;
    const row = await this.remotes.upsert(workspaceId, { ...checked.input, secret }, existingWorkspace);
    return toStatus(row);
  }

  async status(workspaceId: string): Promise<GitRemoteStatus<Date> | null> {
    const row = await this.remotes.findStatus(workspaceId);
    return row ? toStatus(row) : null;
  }

  async clearCredential(workspaceId: string): Promise<boolean> {
    return this.remotes.clearSecret(workspaceId);
  }

  markCloned(workspaceId: string): Promise<void> {
    return this.remotes.markCloned(workspaceId);
  }

  /** The remote and its decrypted credential, for one git command on the host; null without a remote. */
  async access(workspaceId: string): Promise<(GitRemoteAccess & { clonedAt: Date | null }) | null> {
    const row = await this.remotes.findStatus(workspaceId);
    if (!row) return null;
    const url = parseGitUrl(row.url);
    let credential: GitCredential = { kind: 'none' };
    if (row.authKind !== 'none') {
      const sealed = await this.remotes.findSecret(workspaceId);
      if (sealed) {
        const plain = JSON.parse(this.box.open(sealed, aadFor(workspaceId))) as { token?: string; privateKey?: string };
        if (row.authKind === 'token' && plain.token) credential = { kind: 'token', username: row.username ?? DEFAULT_TOKEN_USERNAME, token: plain.token };
        if (row.authKind === 'ssh_key' && plain.privateKey) credential = { kind: 'ssh_key', privateKey: plain.privateKey };
      }
    }
    return { url, branch: row.branch, credential, clonedAt: row.clonedAt };
  }
}

function toStatus(row: { url: string; branch: string | null; authKind: string; username: string | null; updatedAt: Date }): GitRemoteStatus<Date> {
  const authKind = row.authKind as GitRemoteStatus['authKind'];
  return { url: row.url, branch: row.branch, authKind, username: row.username, hasCredential: authKind !== 'none', updatedAt: row.updatedAt };
}
