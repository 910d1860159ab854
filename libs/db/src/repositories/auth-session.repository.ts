import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { columns, sql } from '../sql';

export interface AuthSessionRecord {
  id: string;
  userId: string;
  csrfToken: string;
  expiresAt: Date;
}

const sessionSelect = { id: true, userId: true, csrfToken: true, expiresAt: true } as const;
const SESSION_COLUMNS = columns(sessionSelect);

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
  async findActiveByTokenHash(tokenHash: string, now = new Date()): Promise<AuthSessionRecord | null> {
    // Direct SQL (sql.ts): every signed-in request reads this.
    const [row] = await this.prisma.sql.rows<AuthSessionRecord>(sql`
      SELECT ${SESSION_COLUMNS} FROM "AuthSession"
      WHERE "tokenHash" = ${tokenHash} AND "revokedAt" IS NULL AND "expiresAt" > ${now}::timestamp(3) LIMIT 1`);
    return row ?? null;
  }

  async touch(id: string): Promise<void> {
    await this.prisma.authSession.update({ where: { id }, data: { lastSeenAt: new Date() } });
  }

  async revoke(id: string): Promise<void> {
    await this.prisma.authSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  }
}
