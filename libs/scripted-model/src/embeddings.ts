// POST /v1/embeddings of the scripted server (OpenAI's shape): deterministic vectors, so tests of
// embedding-ranked memory run against a real HTTP embeddings API. By default a hashed bag of words
// (texts sharing words point the same way); a test that needs meaning beyond shared words passes
// its own `embed`.

export const EMBEDDING_DIMENSIONS = 64;

/** Lower-cased words hashed into EMBEDDING_DIMENSIONS buckets, L2-normalised. */
export function bagOfWordsEmbedding(text: string): number[] {
  const v = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % EMBEDDING_DIMENSIONS] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** The response body for `input` (a string or an array of strings), or an error message. */
export function embeddingsResponse(body: unknown, embed: (text: string) => number[]): { ok: true; body: unknown } | { ok: false; message: string } {
  const { model, input } = (body ?? {}) as { model?: unknown; input?: unknown };
  if (typeof model !== 'string' || !model) return { ok: false, message: 'model is required' };
  const inputs = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((i) => typeof i === 'string') ? (input as string[]) : null;
  if (!inputs || inputs.length === 0) return { ok: false, message: 'input must be a string or a non-empty array of strings' };
  const tokens = inputs.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  return {
    ok: true,
    body: {
      object: 'list',
      model,
      data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}
