import { Injectable } from '@nestjs/common';
import type { ModelPreset } from '@h/contracts';
import { Prisma } from '../generated/client';
import { PrismaService } from '../prisma.service';

/** The wire shape (libs/contracts model-presets.ts) with Date objects. */
export type ModelPresetRecord = ModelPreset<Date>;

const SELECT = { id: true, teamId: true, name: true, providerId: true, model: true, thinking: true, createdById: true, createdAt: true, updatedAt: true } as const;

/** A second preset of the same name in a team. */
export class ModelPresetNameTaken extends Error {}

function renameTaken(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new ModelPresetNameTaken();
  throw err;
}

// Every query names the team: a preset id from another team reads as missing (404), never as it.
@Injectable()
export class ModelPresetRepository {
  constructor(private readonly prisma: PrismaService) {}

  listByTeam(teamId: string): Promise<ModelPresetRecord[]> {
    return this.prisma.modelPreset.findMany({ where: { teamId }, orderBy: [{ name: 'asc' }, { id: 'asc' }], select: SELECT });
  }

  countByTeam(teamId: string): Promise<number> {
    return this.prisma.modelPreset.count({ where: { teamId } });
  }

  findInTeam(teamId: string, id: string): Promise<ModelPresetRecord | null> {
    return this.prisma.modelPreset.findFirst({ where: { id, teamId }, select: SELECT });
  }

  create(data: { teamId: string; name: string; providerId: string | null; model: string; thinking: boolean; createdById: string }): Promise<ModelPresetRecord> {
    return this.prisma.modelPreset.create({ data, select: SELECT }).catch(renameTaken);
  }

  /** Null when no such preset is in the team. */
  async update(teamId: string, id: string, data: { name?: string; providerId?: string | null; model?: string; thinking?: boolean }): Promise<ModelPresetRecord | null> {
    const { count } = await this.prisma.modelPreset.updateMany({ where: { id, teamId }, data }).catch(renameTaken);
    return count ? this.findInTeam(teamId, id) : null;
  }

  /** Names of the team's presets that use a custom provider (it cannot be deleted while any do). */
  async namesUsingProvider(teamId: string, providerId: string): Promise<string[]> {
    const rows = await this.prisma.modelPreset.findMany({ where: { teamId, providerId }, orderBy: { name: 'asc' }, select: { name: true } });
    return rows.map((r) => r.name);
  }

  async remove(teamId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.modelPreset.deleteMany({ where: { id, teamId } });
    return count > 0;
  }
}
