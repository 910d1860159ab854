import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/client';
import { PrismaService } from '../prisma.service';

export interface StoredDocument {
  value: unknown;
  updatedAt: Date;
}

// The IDE's per-user state: one document per user and workspace, and one preferences document
// per user. Both are plain JSON to the database; libs/preferences validates them.
@Injectable()
export class IdeStateRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(userId: string, workspaceId: string): Promise<StoredDocument | null> {
    const row = await this.prisma.ideState.findUnique({ where: { userId_workspaceId: { userId, workspaceId } }, select: { state: true, updatedAt: true } });
    return row ? { value: row.state, updatedAt: row.updatedAt } : null;
  }

  async put(userId: string, workspaceId: string, state: Record<string, unknown>): Promise<StoredDocument> {
    const json = state as Prisma.InputJsonValue;
    const row = await this.prisma.ideState.upsert({
      where: { userId_workspaceId: { userId, workspaceId } },
      create: { userId, workspaceId, state: json },
      update: { state: json },
      select: { state: true, updatedAt: true },
    });
    return { value: row.state, updatedAt: row.updatedAt };
  }

  async findPreferences(userId: string): Promise<StoredDocument | null> {
    const row = await this.prisma.userPreference.findUnique({ where: { userId }, select: { preferences: true, updatedAt: true } });
    return row ? { value: row.preferences, updatedAt: row.updatedAt } : null;
  }

  async putPreferences(userId: string, preferences: Record<string, unknown>): Promise<StoredDocument> {
    const json = preferences as Prisma.InputJsonValue;
    const row = await this.prisma.userPreference.upsert({
      where: { userId },
      create: { userId, preferences: json },
      update: { preferences: json },
      select: { preferences: true, updatedAt: true },
    });
    return { value: row.preferences, updatedAt: row.updatedAt };
  }
}
