import { Injectable, Logger } from '@nestjs/common';
import { MEMORY_LIMITS, type MemoryCategory, type MemoryScope } from '@h/contracts';
import { MemoryKeyTaken, MemoryRepository, type MemoryOwner, type MemoryRecord, type MemoryRevisionRecord, type MemoryView } from '@h/db';
import { AppException } from '@h/http';
import type { RecalledMemory, RememberOutcome, RememberRequest } from '@h/tools';
import { autoCapturePreference } from './memory-capture';
import { memorySimilarity, type MemoryEmbedder } from './memory-embeddings';
import { normalizeKey, resolveScope } from './memory-key';
import { scoreMemory, selectMemories, userProfileSubset, words, type MemorySelection } from './memory-selection';

/** Who changes memory: the person, and the run when the agent (or auto-capture) does it. */
export interface MemoryActor {
  userId: string | null;
  runId: string | null;
}

export interface MemoryEdit {
  key?: string;
  content?: string;
  category?: MemoryCategory;
  tags?: string[];
}

/** Trigram similarity from which two memories of one owner and category are one (seed: cosine > 0.95; trigrams are coarser). */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;

function ownerOf(view: MemoryView, scope: MemoryScope): MemoryOwner {
  return scope === 'user' ? { teamId: view.teamId, scope, userId: view.userId } : { teamId: view.teamId, scope, workspaceId: view.workspaceId };
}

function tagsOf(tags: readonly string[] | undefined): string[] {
  const clean = (tags ?? []).map((t) => t.trim().toLowerCase().slice(0, MEMORY_LIMITS.tagChars)).filter(Boolean);
  return [...new Set(clean)].slice(0, MEMORY_LIMITS.tags);
}

function recalled(m: MemoryRecord): RecalledMemory {
  return { key: m.key, content: m.content, scope: m.scope, category: m.category, tags: m.tags };
}

/**
 * Persistent memory (seed: "Persistent Memory"): remember / recall / forget with the scope guard,
 * key normalisation (spelling variants update one entry) and a revision for every change, so an
 * overwritten value is never lost; the per-run selection and the sub-agents' profile subset;
 * auto-capture of explicit preferences; the maintenance merge. Every call names a view (team, user,
 * workspace): nobody reaches another user's user memory or another workspace's project memory.
 */
@Injectable()
export class MemoryService {
  private readonly logger = new Logger(MemoryService.name);

  constructor(private readonly memories: MemoryRepository) {}

  async remember(view: MemoryView, actor: MemoryActor, req: RememberRequest): Promise<RememberOutcome & { memory: MemoryRecord }> {
    const normKey = normalizeKey(req.key);
    if (!normKey) throw AppException.badRequest('VALIDATION_FAILED', 'key: needs at least one letter or digit');
    const scope = resolveScope(req.scope, req.key, req.value);
    const owner = ownerOf(view, scope);
    const content = req.value.trim();
    const existing = await this.memories.findByKey(owner, normKey);
    if (existing) {
      const tags = tagsOf([...existing.tags, ...(req.tags ?? [])]);
      const category = req.category ?? existing.category;
      if (existing.content === content && category === existing.category && tags.length === existing.tags.length) {
        return { key: existing.key, scope, outcome: 'unchanged', memory: existing };
      }
      const updated = await this.memories.update(existing.id, { content, category, tags }, { change: 'update', ...this.by(actor) });
      if (!updated) return this.remember(view, actor, req); // forgotten meanwhile: store it anew
      return { key: updated.key, scope, outcome: 'updated', ...(existing.content !== content ? { previous: existing.content } : {}), memory: updated };
    }
    if ((await this.memories.countLive(owner)) >= MEMORY_LIMITS.perOwner) {
      throw new AppException(409, 'MEMORY_LIMIT', `At most ${MEMORY_LIMITS.perOwner} ${scope} memories are kept; forget one first.`);
    }
    try {
      const memory = await this.memories.create(owner, { key: req.key.trim(), normKey, content, category: req.category ?? 'general', tags: tagsOf(req.tags) }, this.by(actor));
      return { key: memory.key, scope, outcome: 'created', memory };
    } catch (err) {
      // Two writers remembered the same key at once: the second one updates the first's entry.
      if (err instanceof MemoryKeyTaken) return this.remember(view, actor, req);
      throw err;
    }
  }

  /** By exact (normalised) key, by keywords (ranked), or everything when neither is given. */
  async recall(view: MemoryView, q: { query?: string; key?: string }): Promise<RecalledMemory[]> {
    if (q.key) {
      const normKey = normalizeKey(q.key);
      const found = await Promise.all((['user', 'project'] as const).map((s) => this.memories.findByKey(ownerOf(view, s), normKey)));
      const exact = found.filter((m): m is MemoryRecord => !!m);
      if (exact.length || !q.query) return exact.map(recalled);
    }
    const all = await this.memories.list(view);
    if (!q.query) return all.map(recalled);
    const asked = new Set(words(q.query));
    const textRank = await this.memories.textRank(view, q.query);
    return all
      .map((m) => ({ m, score: scoreMemory(m, asked, { textRank }) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score)
      .map((r) => recalled(r.m));
  }

  /** Forgets the key in the given scope, or in both when none is given; answers how many went. */
  async forget(view: MemoryView, actor: MemoryActor, key: string, scope?: MemoryScope): Promise<number> {
    const normKey = normalizeKey(key);
    let n = 0;
    for (const s of scope ? [scope] : (['project', 'user'] as const)) {
      const m = await this.memories.findByKey(ownerOf(view, s), normKey);
      if (m && (await this.memories.forget(m.id, this.by(actor)))) n++;
    }
    return n;
  }

  /** The run's memory block: the top entries for the person's message within `maxBytes`, skipping those already told. */
  async selectForRun(view: MemoryView, message: string, o: { maxBytes: number; told?: ReadonlySet<string>; embedder?: MemoryEmbedder }): Promise<MemorySelection> {
    if (o.maxBytes <= 0) return { content: '', ids: [], entries: [] };
    const [all, textRank] = await Promise.all([this.memories.list(view), this.memories.textRank(view, message)]);
    // The meaning term when the run's provider has an embeddings model; without it (or when the
    // provider refuses) keywords and full-text rank decide alone.
    const similarity = o.embedder
      ? await memorySimilarity(this.memories, all, message, o.embedder).catch((err: unknown) => {
          this.logger.warn({ err, model: o.embedder?.model }, 'memory embeddings failed; ranking by keywords and full-text rank only');
          return undefined;
        })
      : undefined;
    return selectMemories(all, message, { maxBytes: o.maxBytes, told: o.told, signals: { textRank, similarity } });
  }

  /** What a sub-agent is told about the user (≤ 1,500 characters); empty without user memory. */
  async userProfile(view: MemoryView): Promise<string> {
    return userProfileSubset(await this.memories.list(view, { scope: 'user' }));
  }

  /** Remembers the explicit preferences of a person's message as user pref-* entries; repeats change nothing. */
  async capture(view: MemoryView, actor: MemoryActor, message: string): Promise<RememberOutcome[]> {
    const outcomes: RememberOutcome[] = [];
    for (const pref of autoCapturePreference(message)) {
      const { memory: _m, ...outcome } = await this.remember(view, actor, { key: pref.key, value: pref.content, category: 'preference', tags: ['auto'], scope: 'user' });
      outcomes.push(outcome);
    }
    return outcomes;
  }

  /**
   * Merges near-duplicates of the user's and the workspace's memory: the newer entry stays and
   * takes the other's tags; the older is forgotten with a `merge` revision (its value stays in its
   * history). Answers how many were merged.
   */
  async maintain(view: MemoryView): Promise<number> {
    let merged = 0;
    for (const scope of ['user', 'project'] as const) {
      const owner = ownerOf(view, scope);
      const gone = new Set<string>();
      for (const pair of await this.memories.nearDuplicates(owner, NEAR_DUPLICATE_SIMILARITY)) {
        if (gone.has(pair.keep) || gone.has(pair.drop)) continue;
        const [keep, drop] = await Promise.all([this.memories.findInView(view, pair.keep), this.memories.findInView(view, pair.drop)]);
        if (!keep || !drop) continue;
        const tags = tagsOf([...keep.tags, ...drop.tags]);
        if (tags.length !== keep.tags.length) await this.memories.update(keep.id, { tags }, { change: 'merge', changedById: null, runId: null });
        if (await this.memories.forget(drop.id, { change: 'merge', changedById: null, runId: null })) merged++;
        gone.add(drop.id);
      }
    }
    return merged;
  }

  // --- the settings page (REST) ---

  list(view: MemoryView, o: { scope?: MemoryScope; query?: string }): Promise<MemoryRecord[]> {
    return this.memories.list(view, o);
  }

  async get(view: MemoryView, id: string): Promise<MemoryRecord> {
    const m = await this.memories.findInView(view, id);
    if (!m) throw AppException.notFound('Memory');
    return m;
  }

  async history(view: MemoryView, id: string): Promise<MemoryRevisionRecord[]> {
    const revisions = await this.memories.revisions(view, id);
    if (!revisions) throw AppException.notFound('Memory');
    return revisions;
  }

  async edit(view: MemoryView, actor: MemoryActor, id: string, edit: MemoryEdit): Promise<MemoryRecord> {
    const current = await this.get(view, id);
    const key = edit.key?.trim();
    const normKey = key !== undefined ? normalizeKey(key) : undefined;
    if (normKey === '') throw AppException.badRequest('VALIDATION_FAILED', 'key: needs at least one letter or digit');
    const updated = await this.memories
      .update(current.id, { ...(key !== undefined ? { key, normKey } : {}), ...(edit.content !== undefined ? { content: edit.content.trim() } : {}), ...(edit.category ? { category: edit.category } : {}), ...(edit.tags ? { tags: tagsOf(edit.tags) } : {}) }, { change: 'update', ...this.by(actor) })
      .catch((err: unknown) => {
        if (err instanceof MemoryKeyTaken) throw AppException.conflict('CONFLICT', `Another ${current.scope} memory is called ${key}.`);
        throw err;
      });
    if (!updated) throw AppException.notFound('Memory');
    return updated;
  }

  async remove(view: MemoryView, actor: MemoryActor, id: string): Promise<void> {
    const current = await this.get(view, id);
    if (!(await this.memories.forget(current.id, this.by(actor)))) throw AppException.notFound('Memory');
  }

  private by(actor: MemoryActor): { changedById: string | null; runId: string | null } {
    return { changedById: actor.userId, runId: actor.runId };
  }
}
