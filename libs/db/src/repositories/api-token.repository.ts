import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { columns, sql } from '../sql';

export interface ApiTokenRecord {
  id: string;
  teamId: string;
  createdById: string;
  name: string;
  prefix: string;
  scopes: string[];
  workspaceId: string | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const tokenSelect = {
  id: true,
  teamId: true,
  createdById: true,
  name: true,
  prefix: true,
  scopes: true,
  workspaceId: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdAt: true,
} as const;
const TOKEN_COLUMNS = columns(tokenSelect);

@Injectable()
export class ApiTokenRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(input: {
    teamId: string;
    createdById: string;
    name: string;
    prefix: string;
    secretHash: string;
    scopes: string[];
    workspaceId?: string | null;
    expiresAt?: Date | null;
  }): Promise<ApiTokenRecord> {
    return this.prisma.apiToken.create({ data: input, select: tokenSelect });
  }

  listActive(teamId: string): Promise<ApiTokenRecord[]> {
    return this.prisma.apiToken.findMany({
      where: { teamId, revokedAt: null },
      orderBy: { createdAt: 'desc' },
      select: tokenSelect,
    });
  }

  findInTeam(teamId: string, id: string): Promise<ApiTokenRecord | null> {
    return this.prisma.apiToken.findFirst({ where: { id, teamId }, select: tokenSelect });
  }

  /** Looks a presented token up by its public prefix; the caller compares the hash in constant time. */
  async findByPrefix(prefix: string): Promise<(ApiTokenRecord & { secretHash: string }) | null> {
    // Direct SQL (sql.ts): every request of a bot reads this.
    const [row] = await this.prisma.sql.rows<ApiTokenRecord & { secretHash: string }>(sql`SELECT ${TOKEN_COLUMNS}, "secretHash" FROM "ApiToken" WHERE "prefix" = ${prefix}`);
    return row ?? null;
  }

  async markUsed(id: string): Promise<void> {
    await this.prisma.sql.count(sql`UPDATE "ApiToken" SET "lastUsedAt" = ${new Date()}::timestamp(3) WHERE "id" = ${id}::uuid`);
  }

  async revoke(id: string): Promise<void> {
    await this.prisma.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  }
}
