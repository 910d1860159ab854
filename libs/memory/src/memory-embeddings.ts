// The meaning term of memory ranking (seed: embeddings when the provider offers them): the cosine
// similarity of each memory to the person's message, from the run provider's embeddings model.
// A memory's vector is made once per change (stored, see MemoryRepository.embeddings) and only the
// missing ones are sent, with the message, in one request per run.
import type { MemoryRecord, MemoryRepository } from '@h/db';

/** The run's embeddings API: a model and how to embed texts with it. */
export interface MemoryEmbedder {
  model: string;
  embed(inputs: string[]): Promise<number[][]>;
}

/** At most this many memories are embedded in one run (the rest wait for the next run). */
export const EMBED_PER_RUN = 64;

export function embeddingText(m: Pick<MemoryRecord, 'key' | 'content'>): string {
  return `${m.key}: ${m.content}`;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Cosine similarity of each memory (that has or gets a vector) to `message`, by id. */
export async function memorySimilarity(repo: MemoryRepository, all: readonly MemoryRecord[], message: string, embedder: MemoryEmbedder): Promise<Map<string, number>> {
  if (!all.length) return new Map();
  const stored = await repo.embeddings(all.map((m) => m.id), embedder.model);
  const missing = all.filter((m) => !stored.has(m.id)).slice(0, EMBED_PER_RUN);
  const [query, ...made] = await embedder.embed([message, ...missing.map(embeddingText)]);
  if (made.length) {
    await repo.setEmbeddings(embedder.model, missing.map((m, i) => ({ id: m.id, embedding: made[i] })));
    missing.forEach((m, i) => stored.set(m.id, made[i]));
  }
  return new Map([...stored].map(([id, v]) => [id, cosine(query, v)]));
}
