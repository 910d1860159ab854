import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import type { EncryptedSecret } from './provider-credential.repository';

export type GitAuthKind = 'none' | 'token' | 'ssh_key';

/** What may be shown: never the secret. */
export interface GitRemoteStatusRecord {
  workspaceId: string;
  url: string;
  branch: string | null;
  authKind: GitAuthKind;
  username: string | null;
  clonedAt: Date | null;
  updatedAt: Date;
}

export interface GitRemoteInput {
  url: string;
  branch: string | null;
  authKind: GitAuthKind;
  username: string | null;
  secret: EncryptedSecret | null;
}

const statusSelect = { workspaceId: true, url: true, branch: true, authKind: true, username: true, clonedAt: true, updatedAt: true } as const;

// A workspace's git remote and its encrypted credential; only libs/git-remote reads the secret.
@Injectable()
export class WorkspaceGitRemoteRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * `alreadyCloned`: a remote given to a workspace that has its files (set later, not cloned from),
   * so setup never clones it. An existing row keeps its clone state (a fixed token, then a retry).
   */
  async upsert(workspaceId: string, input: GitRemoteInput, alreadyCloned = false): Promise<GitRemoteStatusRecord> {
    const s = input.secret;
    const data = {
      url: input.url,
      branch: input.branch,
      authKind: input.authKind,
      username: input.username,
      ciphertext: s ? Buffer.from(s.ciphertext) : null,
      iv: s ? Buffer.from(s.iv) : null,
      authTag: s ? Buffer.from(s.authTag) : null,
      keyId: s?.keyId ?? null,
    };
    const row = await this.prisma.workspaceGitRemote.upsert({ where: { workspaceId }, create: { workspaceId, ...data, clonedAt: alreadyCloned ? new Date() : null }, update: data, select: statusSelect });
    return row as GitRemoteStatusRecord;
  }

  async findStatus(workspaceId: string): Promise<GitRemoteStatusRecord | null> {
    return (await this.prisma.workspaceGitRemote.findUnique({ where: { workspaceId }, select: statusSelect })) as GitRemoteStatusRecord | null;
  }

  /** For host-side git only (clone, fetch, push); never returned over HTTP. */
  async findSecret(workspaceId: string): Promise<EncryptedSecret | null> {
    const row = await this.prisma.workspaceGitRemote.findUnique({ where: { workspaceId }, select: { ciphertext: true, iv: true, authTag: true, keyId: true } });
    if (!row?.ciphertext || !row.iv || !row.authTag || !row.keyId) return null;
    return { ciphertext: row.ciphertext, iv: row.iv, authTag: row.authTag, keyId: row.keyId };
  }

  async markCloned(workspaceId: string): Promise<void> {
    await this.prisma.workspaceGitRemote.updateMany({ where: { workspaceId }, data: { clonedAt: new Date() } });
  }

  /** Drops the credential, keeps the URL (fetch of a public remote still works). */
  async clearSecret(workspaceId: string): Promise<boolean> {
    const { count } = await this.prisma.workspaceGitRemote.updateMany({
      where: { workspaceId, authKind: { not: 'none' } },
      data: { authKind: 'none', username: null, ciphertext: null, iv: null, authTag: null, keyId: null },
    });
    return count > 0;
  }
}
