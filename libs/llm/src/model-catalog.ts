import type { ModelUsage } from './model-provider';

export type ThinkingSupport = 'toggle' | 'always' | 'never';

export interface ModelInfo {
  id: string;
  contextWindow: number;
  maxOutput: number;
  /** USD per million tokens. */
  pricePerMillion: { cacheHit: number; cacheMiss: number; output: number };
  /** false when the id is not in the table and these figures are a guess. */
  known: boolean;
  thinking: ThinkingSupport;
  /** What the provider does when the request does not say. */
  defaultThinking: boolean;
}

// DeepSeek list prices in USD per 1M tokens, from api-docs.deepseek.com/quick_start/pricing as
// published for DeepSeek-V4-Flash-0731 / V4-Pro-0813 (checked 2026-11-29; see README for the
// peak/off-peak caveat). On v4-flash a cache hit costs 1/50 of a miss.
const FLASH_PRICE = { cacheHit: 0.0028, cacheMiss: 0.14, output: 0.28 };
const PRO_PRICE = { cacheHit: 0.003625, cacheMiss: 0.435, output: 0.87 };
const V4_CONTEXT = 1_000_000;
const V4_MAX_OUTPUT = 384_000;
// The seed's table: legacy names and unknown models get 128k. The legacy names are now aliases of
// v4-flash on DeepSeek itself, but other OpenAI-compatible hosts may still serve V3/R1 behind them,
// so the smaller window is the safe one (compaction starts earlier, never too late).
const LEGACY_CONTEXT = 128_000;

const MODELS: Record<string, ModelInfo> = {
  'deepseek-v4-flash': {
    id: 'deepseek-v4-flash', contextWindow: V4_CONTEXT, maxOutput: V4_MAX_OUTPUT,
    pricePerMillion: FLASH_PRICE, known: true, thinking: 'toggle', defaultThinking: true,
  },
  'deepseek-v4-pro': {
    id: 'deepseek-v4-pro', contextWindow: V4_CONTEXT, maxOutput: V4_MAX_OUTPUT,
    pricePerMillion: PRO_PRICE, known: true, thinking: 'toggle', defaultThinking: true,
  },
  // DeepSeek's newer canonical name for its current Flash model; billed like v4-flash.
  'deepseek-flash': {
    id: 'deepseek-flash', contextWindow: V4_CONTEXT, maxOutput: V4_MAX_OUTPUT,
    pricePerMillion: FLASH_PRICE, known: true, thinking: 'toggle', defaultThinking: true,
  },
  'deepseek-chat': {
    id: 'deepseek-chat', contextWindow: LEGACY_CONTEXT, maxOutput: 8_192,
    pricePerMillion: FLASH_PRICE, known: true, thinking: 'never', defaultThinking: false,
  },
  'deepseek-reasoner': {
    id: 'deepseek-reasoner', contextWindow: LEGACY_CONTEXT, maxOutput: 64_000,
    pricePerMillion: FLASH_PRICE, known: true, thinking: 'always', defaultThinking: true,
  },
};

export const DEFAULT_MODEL = 'deepseek-v4-flash';

/**
 * Adds or replaces a model (e.g. a custom OpenAI-compatible host, or new prices set by an
 * operator) so that getModelInfo and computeCost know it.
 */
export function registerModel(info: Omit<ModelInfo, 'known'>): void {
  MODELS[info.id] = { ...info, pricePerMillion: { ...info.pricePerMillion }, known: true };
}

/** A model an operator adds through configuration (MODEL_CATALOG): an explicit window and price. */
export interface ConfiguredModelInfo {
  id: string;
  contextWindow: number;
  maxOutput?: number;
  price: ModelInfo['pricePerMillion'];
}

/** Registers the operator's models; called once per process with the validated configuration. */
export function registerConfiguredModels(models: readonly ConfiguredModelInfo[]): void {
  for (const m of models) {
    registerModel({
      id: m.id, contextWindow: m.contextWindow, maxOutput: m.maxOutput ?? Math.min(8_192, m.contextWindow),
      pricePerMillion: m.price, thinking: 'toggle', defaultThinking: false,
    });
  }
}

/**
 * Null when `model` is in the catalog (built in or configured), else why not, naming the known
 * ids: a session must not run on a guessed window and price.
 */
export function unknownModelReason(model: string): string | null {
  if (Object.hasOwn(MODELS, model)) return null;
  return `Unknown model "${model}". Known models: ${Object.keys(MODELS).join(', ')}. An operator can add one with its context window and price in MODEL_CATALOG.`;
}

/** Every model of the catalog (built in, then configured), for pickers such as model presets. */
export function listModels(): ModelInfo[] {
  return Object.values(MODELS).map((m) => ({ ...m, pricePerMillion: { ...m.pricePerMillion } }));
}

/** Unknown models (custom hosts, `scripted:*`) get the seed's 128k window and v4-flash prices, flagged `known: false`. */
export function getModelInfo(model: string): ModelInfo {
  const found = MODELS[model];
  if (found) return { ...found, pricePerMillion: { ...found.pricePerMillion } };
  return {
    id: model, contextWindow: LEGACY_CONTEXT, maxOutput: 8_192,
    pricePerMillion: { ...FLASH_PRICE }, known: false, thinking: 'toggle', defaultThinking: false,
  };
}

/** Whether a request with `requested` thinking actually runs in thinking mode on `model`. */
export function effectiveThinking(model: string | ModelInfo, requested: boolean | undefined): boolean {
  const info = typeof model === 'string' ? getModelInfo(model) : model;
  if (info.thinking === 'always') return true;
  if (info.thinking === 'never') return false;
  return requested ?? info.defaultThinking;
}

/**
 * USD, for a catalog model id or a model's own info (a team provider's model). Providers that
 * report no cache split are billed as all-miss.
 */
export function computeCost(model: string | Pick<ModelInfo, 'pricePerMillion'>, usage: ModelUsage): number {
  const price = (typeof model === 'string' ? getModelInfo(model) : model).pricePerMillion;
  const reported = usage.cacheHitTokens + usage.cacheMissTokens;
  const hit = usage.cacheHitTokens;
  const miss = reported === 0 ? usage.promptTokens : usage.cacheMissTokens;
  return (hit * price.cacheHit + miss * price.cacheMiss + usage.completionTokens * price.output) / 1_000_000;
}

export function emptyUsage(): ModelUsage {
  return { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0 };
}

export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cacheHitTokens: a.cacheHitTokens + b.cacheHitTokens,
    cacheMissTokens: a.cacheMissTokens + b.cacheMissTokens,
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
  };
}
