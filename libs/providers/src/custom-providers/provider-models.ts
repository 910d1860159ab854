import { CUSTOM_PROVIDER_MODELS_MAX, MODEL_ID_PATTERN, type DiscoveredModel, type ProviderModel } from '@h/contracts';
import type { ModelInfo } from '@h/llm';

// A team provider's model list: checked when saved (the DTO checks each field, this the list as a
// whole), turned into the ModelInfo the agent meters and compacts by, and read from a server's
// `GET /models` answer.

export class ProviderModelsError extends Error {}

const MODEL_ID = new RegExp(MODEL_ID_PATTERN);
const DEFAULT_MAX_OUTPUT = 8_192;
/** Entries read from a `GET /models` answer at most (a gateway may list thousands). */
export const DISCOVERED_MODELS_MAX = 500;

/** Unique ids, maxOutput within the window; returns the list in a stable shape (no extra keys). */
export function checkProviderModels(models: readonly ProviderModel[]): ProviderModel[] {
  if (models.length > CUSTOM_PROVIDER_MODELS_MAX) throw new ProviderModelsError(`A provider lists at most ${CUSTOM_PROVIDER_MODELS_MAX} models.`);
  const seen = new Set<string>();
  return models.map((m) => {
    if (seen.has(m.id)) throw new ProviderModelsError(`The model "${m.id}" is listed twice; each model id once.`);
    seen.add(m.id);
    if (m.maxOutput !== undefined && m.maxOutput > m.contextWindow) {
      throw new ProviderModelsError(`The model "${m.id}" has maxOutput ${m.maxOutput} beyond its context window of ${m.contextWindow} tokens.`);
    }
    const out: ProviderModel = { id: m.id, contextWindow: m.contextWindow };
    if (m.maxOutput !== undefined) out.maxOutput = m.maxOutput;
    if (m.price) out.price = { input: m.price.input, cacheHit: m.price.cacheHit ?? m.price.input, output: m.price.output };
    return out;
  });
}

/**
 * What the agent knows about a team provider's model. No price: a self-hosted server costs
 * nothing per token. No cache price: cached tokens cost what input does. Thinking is 'never':
 * H sends a plain server no vendor toggle; a model that reasons by itself still streams it.
 */
export function providerModelInfo(m: ProviderModel): ModelInfo {
  const price = m.price ?? { input: 0, output: 0 };
  return {
    id: m.id,
    contextWindow: m.contextWindow,
    maxOutput: m.maxOutput ?? Math.min(DEFAULT_MAX_OUTPUT, m.contextWindow),
    pricePerMillion: { cacheMiss: price.input, cacheHit: price.cacheHit ?? price.input, output: price.output },
    known: true,
    thinking: 'never',
    defaultThinking: false,
  };
}

/** The `known` models the message lists when a model is not in the provider's list. */
export function unknownProviderModel(providerName: string, model: string, models: readonly ProviderModel[]): string {
  const known = models.map((m) => m.id);
  return `Provider "${providerName}" has no model "${model}". ${known.length ? `Its models: ${known.join(', ')}.` : 'It lists no models yet: add some in its settings first.'}`;
}

/**
 * Models of an OpenAI-style `{ data: [{ id, … }] }` answer. The window comes from the fields
 * servers use for it (vLLM `max_model_len`, OpenRouter `context_length`, others
 * `context_window`), when present; entries without a usable id are skipped.
 */
export function parseModelList(body: unknown): DiscoveredModel[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new ProviderModelsError('The answer is not an OpenAI-style model list ({ "data": [ { "id": … } ] }).');
  const out: DiscoveredModel[] = [];
  const seen = new Set<string>();
  for (const entry of data.slice(0, DISCOVERED_MODELS_MAX)) {
    const e = entry as Record<string, unknown> | null;
    const id = e?.id;
    if (typeof id !== 'string' || !MODEL_ID.test(id) || seen.has(id)) continue;
    seen.add(id);
    const window = [e?.max_model_len, e?.context_length, e?.context_window].find((v) => Number.isSafeInteger(v) && (v as number) > 0) as number | undefined;
    out.push({ id, contextWindow: window ?? null });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
