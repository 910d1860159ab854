import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface AuthSessionRecord {
  id: string;
  userId: string;
  csrfToken: string;
  expiresAt: Date;
}

const sessionSelect = { id: true, userId: true, csrfToken: true, expiresAt: true } as const;

@Injectable()
export class AuthSessionRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(input: {
    userId: string;
    tokenHash: string;
    csrfToken: string;
    expiresAt: Date;
    ip?: string;
    userAgent?: string;
  }): Promise<AuthSessionRecord> {
    return this.prisma.authSession.create({ data: input, select: sessionSelect });
  }

  /** A live session: not revoked and not expired. */
  findActiveByTokenHash(tokenHash: string, now = new Date()): Promise<AuthSessionRecord | null> {
    return this.prisma.authSession.findFirst({
      where: { tokenHash, revokedAt: null, expiresAt: { gt: now } },
      select: sessionSelect,
    });
  }

  async touch(id: string): Promise<void> {
    await this.prisma.authSession.update({ where: { id }, data: { lastSeenAt: new Date() } });
  }

  async revoke(id: string): Promise<void> {
    await this.prisma.authSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  }
}
