// Relevance-ranked injection (seed: selectMemoryContext): each run scores every live entry against
// the person's message and tells the model the top K (6) within a byte budget, once, after the
// cached prefix. Scores are keyword hits (key words weigh most, then tags, then content) plus the
// database's full-text rank when the caller has one, plus the cosine similarity of embeddings when
// the run's provider has an embeddings model (MEMORY_EMBEDDINGS_MODEL, memory-embeddings.ts). Nothing matching: the newest entries, so
// the block is there whenever memory is (the seed's "always present").
import { MEMORY_LIMITS, type MemoryCategory, type MemoryScope } from '@h/contracts';

export interface RankableMemory {
  id: string;
  key: string;
  content: string;
  scope: MemoryScope;
  category: MemoryCategory;
  tags: string[];
  updatedAt: Date;
}

export interface MemorySignals {
  /** Postgres ts_rank (or trigram similarity) per entry id, 0..1. */
  textRank?: ReadonlyMap<string, number>;
  /** Cosine similarity to the message per entry id, when the run's provider embeds (memory-embeddings.ts). */
  similarity?: ReadonlyMap<string, number>;
}

export interface MemorySelection {
  /** The block the model is told; empty when nothing fits. */
  content: string;
  /** `id@version` of each entry told (a later run of the session skips unchanged ones). */
  ids: string[];
  entries: RankableMemory[];
}

export const MEMORY_BLOCK_HEADER = '[What H remembers — stored memory; newer instructions in this conversation win]';

const STOP = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'are', 'was', 'were', 'you', 'your', 'our', 'can', 'please', 'not',
  'use', 'all', 'any', 'but', 'have', 'has', 'its', 'let', 'lets', 'make', 'now', 'then', 'there', 'what', 'when', 'which', 'will', 'would',
]);

export function words(text: string): string[] {
  return (text.toLowerCase().normalize('NFKD').match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3 && !STOP.has(w));
}

/** A word matches another exactly, or as a stem (test/tests/testing) when both are 4+ letters. */
function hit(a: string, set: ReadonlySet<string>): boolean {
  if (set.has(a)) return true;
  if (a.length < 4) return false;
  for (const b of set) if (b.length >= 4 && (b.startsWith(a.slice(0, Math.max(4, a.length - 3))) || a.startsWith(b.slice(0, Math.max(4, b.length - 3))))) return true;
  return false;
}

export function scoreMemory(entry: RankableMemory, message: ReadonlySet<string>, signals: MemorySignals = {}): number {
  if (message.size === 0) return 0;
  let score = 0;
  for (const w of new Set(words(entry.key))) if (hit(w, message)) score += 3;
  for (const w of new Set(entry.tags.flatMap(words))) if (hit(w, message)) score += 2;
  for (const w of new Set(words(entry.content))) if (hit(w, message)) score += 1;
  score += 4 * (signals.textRank?.get(entry.id) ?? 0);
  score += 6 * Math.max(0, signals.similarity?.get(entry.id) ?? 0);
  return score;
}

export function memoryVersion(entry: Pick<RankableMemory, 'id' | 'updatedAt'>): string {
  return `${entry.id}@${entry.updatedAt.getTime()}`;
}

function entryLine(e: RankableMemory): string {
  const tags = e.tags.length ? ` (${e.tags.join(', ')})` : '';
  return `- ${e.key}${tags}: ${e.content}`;
}

/** The block for the chosen entries: user profile first, then project memory, each in rank order. */
export function renderMemoryBlock(entries: readonly RankableMemory[]): string {
  if (!entries.length) return '';
  const parts = [MEMORY_BLOCK_HEADER];
  const user = entries.filter((e) => e.scope === 'user');
  const project = entries.filter((e) => e.scope === 'project');
  if (user.length) parts.push('About the user:', ...user.map(entryLine));
  if (project.length) parts.push('About this project:', ...project.map(entryLine));
  return parts.join('\n');
}

export interface SelectOptions {
  topK?: number;
  maxBytes: number;
  /** Entries already told in this session at this version (`id@version`): not told again. */
  told?: ReadonlySet<string>;
  signals?: MemorySignals;
}

/** The top K entries for `message` that fit `maxBytes` once rendered (an entry that does not fit is skipped). */
export function selectMemories(all: readonly RankableMemory[], message: string, o: SelectOptions): MemorySelection {
  const empty: MemorySelection = { content: '', ids: [], entries: [] };
  if (o.maxBytes <= 0) return empty;
  const asked = new Set(words(message));
  const fresh = all.filter((e) => !o.told?.has(memoryVersion(e)));
  const ranked = fresh
    .map((e) => ({ e, score: scoreMemory(e, asked, o.signals) }))
    .sort((a, b) => b.score - a.score || b.e.updatedAt.getTime() - a.e.updatedAt.getTime() || a.e.key.localeCompare(b.e.key));
  const chosen: RankableMemory[] = [];
  for (const { e } of ranked) {
    if (chosen.length >= (o.topK ?? MEMORY_LIMITS.topK)) break;
    if (Buffer.byteLength(renderMemoryBlock([...chosen, e])) <= o.maxBytes) chosen.push(e);
  }
  return chosen.length ? { content: renderMemoryBlock(chosen), ids: chosen.map(memoryVersion), entries: chosen } : empty;
}

/**
 * What a sub-agent is told about the user (seed: getUserProfileContext): user-scope entries,
 * preferences first then newest, as lines within `maxChars` (1,500). Empty without any.
 */
export function userProfileSubset(all: readonly RankableMemory[], maxChars: number = MEMORY_LIMITS.profileChars): string {
  const user = all
    .filter((e) => e.scope === 'user')
    .sort((a, b) => Number(b.category === 'preference') - Number(a.category === 'preference') || b.updatedAt.getTime() - a.updatedAt.getTime());
  const lines: string[] = [];
  let size = 0;
  for (const e of user) {
    const line = entryLine(e);
    if (size + line.length + 1 > maxChars) continue;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}
