import { Injectable } from '@nestjs/common';
import type { MemoryCategory, MemoryEntry, MemoryRevisionEntry, MemoryScope } from '@h/contracts';
import { Prisma } from '../generated/client';
import { PrismaService } from '../prisma.service';

/** A live memory with Date objects (the wire shape of libs/contracts memory.ts). */
export type MemoryRecord = MemoryEntry<Date> & { normKey: string; teamId: string };
export type MemoryRevisionRecord = MemoryRevisionEntry<Date>;

/**
 * Whose memory: a user's in a team (scope user) or a workspace's (scope project). The database's
 * enum calls project memory `workspace` (the table predates the wire name).
 */
export type MemoryOwner = { teamId: string; scope: 'user'; userId: string } | { teamId: string; scope: 'project'; workspaceId: string };

/** What a person (or run) may see: their own user memory in the team and one workspace's project memory. */
export interface MemoryView {
  teamId: string;
  userId: string;
  workspaceId: string;
}

export interface MemoryWrite {
  key: string;
  normKey: string;
  content: string;
  category: MemoryCategory;
  tags: string[];
}

export interface MemoryChange {
  change: MemoryRevisionEntry['change'];
  changedById: string | null;
  runId: string | null;
}

/** A second live memory with the same normalised key for the same owner (the partial unique index). */
export class MemoryKeyTaken extends Error {}

const SELECT = {
  id: true, teamId: true, scope: true, key: true, normKey: true, content: true, category: true, tags: true,
  workspaceId: true, userId: true, createdAt: true, updatedAt: true,
} as const;
type Row = Prisma.MemoryGetPayload<{ select: typeof SELECT }>;

function toRecord({ scope, category, ...rest }: Row): MemoryRecord {
  return { ...rest, scope: scope === 'user' ? 'user' : 'project', category: category as MemoryCategory };
}

function ownerWhere(o: MemoryOwner): Prisma.MemoryWhereInput {
  return o.scope === 'user' ? { teamId: o.teamId, scope: 'user', userId: o.userId } : { teamId: o.teamId, scope: 'workspace', workspaceId: o.workspaceId };
}

function viewWhere(v: MemoryView, scope?: MemoryScope): Prisma.MemoryWhereInput {
  const user = { teamId: v.teamId, scope: 'user' as const, userId: v.userId };
  const project = { teamId: v.teamId, scope: 'workspace' as const, workspaceId: v.workspaceId };
  return { deletedAt: null, OR: scope === 'user' ? [user] : scope === 'project' ? [project] : [user, project] };
}

function mapped(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new MemoryKeyTaken();
  throw err;
}

// Every query names the owner or the view: another user's or workspace's memory reads as missing.
@Injectable()
export class MemoryRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Live memories of the view, newest first; `query` filters by key, content or tag (case-insensitive). */
  async list(view: MemoryView, o: { scope?: MemoryScope; query?: string; limit?: number } = {}): Promise<MemoryRecord[]> {
    const q = o.query?.trim();
    const where: Prisma.MemoryWhereInput = q
      ? { AND: [viewWhere(view, o.scope), { OR: [{ key: { contains: q, mode: 'insensitive' } }, { content: { contains: q, mode: 'insensitive' } }, { tags: { has: q.toLowerCase() } }] }] }
      : viewWhere(view, o.scope);
    const rows = await this.prisma.memory.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }], take: o.limit ?? 1000, select: SELECT });
    return rows.map(toRecord);
  }

  async findInView(view: MemoryView, id: string): Promise<MemoryRecord | null> {
    const row = await this.prisma.memory.findFirst({ where: { id, ...viewWhere(view) }, select: SELECT });
    return row ? toRecord(row) : null;
  }

  async findByKey(owner: MemoryOwner, normKey: string): Promise<MemoryRecord | null> {
    const row = await this.prisma.memory.findFirst({ where: { ...ownerWhere(owner), normKey, deletedAt: null }, select: SELECT });
    return row ? toRecord(row) : null;
  }

  countLive(owner: MemoryOwner): Promise<number> {
    return this.prisma.memory.count({ where: { ...ownerWhere(owner), deletedAt: null } });
  }

  async create(owner: MemoryOwner, data: MemoryWrite, change: Omit<MemoryChange, 'change'>): Promise<MemoryRecord> {
    const row = await this.prisma
      .$transaction(async (tx) => {
        const created = await tx.memory.create({
          data: {
            teamId: owner.teamId,
            scope: owner.scope === 'user' ? 'user' : 'workspace',
            userId: owner.scope === 'user' ? owner.userId : null,
            workspaceId: owner.scope === 'project' ? owner.workspaceId : null,
            ...data,
          },
          select: SELECT,
        });
        await tx.memoryRevision.create({ data: { memoryId: created.id, content: data.content, change: 'create', changedById: change.changedById, runId: change.runId } });
        return created;
      })
      .catch(mapped);
    return toRecord(row);
  }

  /** Changes a live memory and logs the value it now has; null when it is gone. */
  async update(id: string, data: Partial<MemoryWrite>, change: MemoryChange): Promise<MemoryRecord | null> {
    const row = await this.prisma
      .$transaction(async (tx) => {
        const { count } = await tx.memory.updateMany({ where: { id, deletedAt: null }, data });
        if (!count) return null;
        const updated = await tx.memory.findUniqueOrThrow({ where: { id }, select: SELECT });
        await tx.memoryRevision.create({ data: { memoryId: id, content: updated.content, change: change.change, changedById: change.changedById, runId: change.runId } });
        return updated;
      })
      .catch(mapped);
    return row ? toRecord(row) : null;
  }

  /** Forgets (soft-deletes) a live memory, logging the value it had: its history stays readable. */
  async forget(id: string, change: Omit<MemoryChange, 'change'> & { change?: 'forget' | 'merge' }): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const current = await tx.memory.findFirst({ where: { id, deletedAt: null }, select: { content: true } });
      if (!current) return false;
      await tx.memory.update({ where: { id }, data: { deletedAt: new Date() } });
      await tx.memoryRevision.create({ data: { memoryId: id, content: current.content, change: change.change ?? 'forget', changedById: change.changedById, runId: change.runId } });
      return true;
    });
  }

  /** Every change of a memory the view may see (live or forgotten), oldest first. */
  async revisions(view: MemoryView, id: string): Promise<MemoryRevisionRecord[] | null> {
    const { deletedAt: _live, ...owned } = viewWhere(view);
    const memory = await this.prisma.memory.findFirst({ where: { id, ...owned }, select: { id: true } });
    if (!memory) return null;
    const rows = await this.prisma.memoryRevision.findMany({
      where: { memoryId: id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, change: true, content: true, changedById: true, runId: true, createdAt: true },
    });
    return rows.map((r) => ({ ...r, change: r.change as MemoryRevisionRecord['change'] }));
  }

  /**
   * Postgres' full-text rank of each live memory of the view for `text` (key and content, the
   * 'simple' configuration), OR-ing its words, normalised to 0..1; entries without a match are absent.
   */
  async textRank(view: MemoryView, text: string): Promise<Map<string, number>> {
    const terms = [...new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])].slice(0, 32);
    if (!terms.length) return new Map();
    const query = terms.join(' | ');
    const rows = await this.prisma.$queryRaw<Array<{ id: string; rank: number }>>`
      SELECT id, ts_rank(to_tsvector('simple', "key" || ' ' || "content"), to_tsquery('simple', ${query}), 32)::float8 AS rank
      FROM "Memory"
      WHERE "teamId" = ${view.teamId}::uuid AND "deletedAt" IS NULL
        AND ((scope = 'user' AND "userId" = ${view.userId}::uuid) OR (scope = 'workspace' AND "workspaceId" = ${view.workspaceId}::uuid))
        AND to_tsvector('simple', "key" || ' ' || "content") @@ to_tsquery('simple', ${query})`;
    return new Map(rows.map((r) => [r.id, Math.min(1, Number(r.rank))]));
  }

  /**
   * The stored embeddings made by `model` of these memories that are still current (made after the
   * memory's last change), by id; the others are absent and need making.
   */
  async embeddings(ids: string[], model: string): Promise<Map<string, number[]>> {
    if (!ids.length) return new Map();
    const rows = await this.prisma.$queryRaw<Array<{ id: string; embedding: number[] }>>`
      SELECT id, embedding FROM "Memory"
      WHERE id = ANY(${ids}::uuid[]) AND "embeddingModel" = ${model} AND "embeddedAt" >= "updatedAt" AND cardinality(embedding) > 0`;
    return new Map(rows.map((r) => [r.id, r.embedding.map(Number)]));
  }

  /** Stores embeddings made by `model` (raw SQL: the memory's updatedAt, what they are checked against, stays). */
  async setEmbeddings(model: string, vectors: Array<{ id: string; embedding: number[] }>): Promise<void> {
    if (!vectors.length) return;
    await this.prisma.$executeRaw`
      UPDATE "Memory" m SET "embedding" = ARRAY(SELECT jsonb_array_elements_text(v.e)::float8), "embeddingModel" = ${model}, "embeddedAt" = now() AT TIME ZONE 'UTC'
      FROM jsonb_to_recordset(${JSON.stringify(vectors.map((v) => ({ id: v.id, e: v.embedding })))}::jsonb) AS v(id uuid, e jsonb)
      WHERE m.id = v.id`;
  }

  /**
   * Pairs of live memories of one owner whose contents are near-duplicates (trigram similarity at
   * least `threshold`), the newer first: what the maintenance job merges. Bounded per call.
   */
  async nearDuplicates(owner: MemoryOwner, threshold: number, limit = 50): Promise<Array<{ keep: string; drop: string; similarity: number }>> {
    const scope = owner.scope === 'user' ? 'user' : 'workspace';
    const ownerId = owner.scope === 'user' ? owner.userId : owner.workspaceId;
    const rows = await this.prisma.$queryRaw<Array<{ keep: string; drop: string; similarity: number }>>`
      SELECT a.id AS keep, b.id AS drop, similarity(a.content, b.content)::float8 AS similarity
      FROM "Memory" a JOIN "Memory" b
        ON a."teamId" = b."teamId" AND a.scope = b.scope AND COALESCE(a."userId", a."workspaceId") = COALESCE(b."userId", b."workspaceId")
       AND a.id <> b.id AND (a."updatedAt", a.id) > (b."updatedAt", b.id)
      WHERE a."teamId" = ${owner.teamId}::uuid AND a.scope = ${scope}::"MemoryScope" AND COALESCE(a."userId", a."workspaceId") = ${ownerId}::uuid
        AND a."deletedAt" IS NULL AND b."deletedAt" IS NULL AND a.category = b.category
        AND similarity(a.content, b.content) >= ${threshold}
      ORDER BY similarity DESC
      LIMIT ${limit}`;
    return rows.map((r) => ({ ...r, similarity: Number(r.similarity) }));
  }
}
