import { Injectable } from '@nestjs/common';
import type { CustomProvider, ProviderModel } from '@h/contracts';
import { Prisma } from '../generated/client';
import { PrismaService } from '../prisma.service';
import type { EncryptedSecret } from './provider-credential.repository';

/** A team's own OpenAI-compatible provider, without its key (only whether one is stored): the wire shape with Date objects. */
export type CustomProviderRecord = CustomProvider<Date>;

/** A second provider of the same name in a team. */
export class CustomProviderNameTaken extends Error {}
/** A preset still names the provider (the foreign key refused the delete). */
export class CustomProviderInUse extends Error {}

const SELECT = {
  id: true, teamId: true, name: true, baseUrl: true, models: true, keyId: true, createdById: true, createdAt: true, updatedAt: true,
} as const;
type Row = Prisma.CustomProviderGetPayload<{ select: typeof SELECT }>;

function toRecord({ keyId, models, ...rest }: Row): CustomProviderRecord {
  return { ...rest, configured: keyId !== null, models: models as unknown as ProviderModel[] };
}

function secretColumns(secret: EncryptedSecret | null) {
  if (!secret) return { ciphertext: null, iv: null, authTag: null, keyId: null };
  return { ciphertext: Buffer.from(secret.ciphertext), iv: Buffer.from(secret.iv), authTag: Buffer.from(secret.authTag), keyId: secret.keyId };
}

function mapped(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (err.code === 'P2002') throw new CustomProviderNameTaken();
    if (err.code === 'P2003') throw new CustomProviderInUse();
  }
  throw err;
}

// Every query names the team: a provider id of another team reads as missing, never as it.
@Injectable()
export class CustomProviderRepository {
  constructor(private readonly prisma: PrismaService) {}

  async listByTeam(teamId: string): Promise<CustomProviderRecord[]> {
    const rows = await this.prisma.customProvider.findMany({ where: { teamId }, orderBy: [{ name: 'asc' }, { id: 'asc' }], select: SELECT });
    return rows.map(toRecord);
  }

  countByTeam(teamId: string): Promise<number> {
    return this.prisma.customProvider.count({ where: { teamId } });
  }

  async findInTeam(teamId: string, id: string): Promise<CustomProviderRecord | null> {
    const row = await this.prisma.customProvider.findFirst({ where: { id, teamId }, select: SELECT });
    return row ? toRecord(row) : null;
  }

  /** `id` is chosen by the caller: the key is sealed to it before the row exists. */
  async create(data: { id: string; teamId: string; name: string; baseUrl: string; models: ProviderModel[]; secret: EncryptedSecret | null; createdById: string }): Promise<CustomProviderRecord> {
    const { secret, models, ...rest } = data;
    const row = await this.prisma.customProvider
      .create({ data: { ...rest, models: models as unknown as Prisma.InputJsonValue, ...secretColumns(secret) }, select: SELECT })
      .catch(mapped);
    return toRecord(row);
  }

  /** `secret`: undefined keeps the stored key, null removes it. Null when no such provider is in the team. */
  async update(
    teamId: string,
    id: string,
    data: { name?: string; baseUrl?: string; models?: ProviderModel[]; secret?: EncryptedSecret | null },
  ): Promise<CustomProviderRecord | null> {
    const { secret, models, ...rest } = data;
    const { count } = await this.prisma.customProvider
      .updateMany({
        where: { id, teamId },
        data: { ...rest, ...(models ? { models: models as unknown as Prisma.InputJsonValue } : {}), ...(secret === undefined ? {} : secretColumns(secret)) },
      })
      .catch(mapped);
    return count ? this.findInTeam(teamId, id) : null;
  }

  /** For the worker that calls the provider; never returned over HTTP. */
  async findSecret(teamId: string, id: string): Promise<EncryptedSecret | null> {
    const row = await this.prisma.customProvider.findFirst({ where: { id, teamId }, select: { ciphertext: true, iv: true, authTag: true, keyId: true } });
    if (!row?.ciphertext || !row.iv || !row.authTag || !row.keyId) return null;
    return { ciphertext: row.ciphertext, iv: row.iv, authTag: row.authTag, keyId: row.keyId };
  }

  async remove(teamId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.customProvider.deleteMany({ where: { id, teamId } }).catch(mapped);
    return count > 0;
  }
}
