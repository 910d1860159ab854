// A team's own OpenAI-compatible providers (REST under /api/v1/teams/:teamId/providers): a name,
// a base URL, an optional key (stored encrypted, never returned: only `configured`) and the
// models it serves, each with its context window and optional prices, so sessions and presets
// may choose them and costs are computed. DeepSeek stays the built-in provider (`providerId`
// null). Zod-free: the browser may import the constants.

/** A model id as sessions, presets and provider model lists accept it (`Qwen/Qwen2.5-Coder-32B`, `llama3.1:8b`). */
export const MODEL_ID_PATTERN = '^[\\w.:/@+-]{1,120}$';
export const MODEL_ID_MAX_LENGTH = 120;
export const CUSTOM_PROVIDER_NAME_MAX_LENGTH = 60;
export const CUSTOM_PROVIDER_URL_MAX_LENGTH = 2048;
export const CUSTOM_PROVIDER_KEY_MAX_LENGTH = 4096;
/** Providers one team may keep (409 QUOTA_EXCEEDED beyond). */
export const CUSTOM_PROVIDERS_PER_TEAM = 20;
/** Models one provider may list. */
export const CUSTOM_PROVIDER_MODELS_MAX = 100;
export const MODEL_CONTEXT_WINDOW_MIN = 1024;
export const MODEL_CONTEXT_WINDOW_MAX = 10_000_000;
/** Highest price accepted, USD per 1M tokens (a guard against a typo, not a market view). */
export const MODEL_PRICE_MAX = 10_000;

/** USD per 1M tokens. `cacheHit` defaults to `input` (no discount) when the provider has no cache price. */
export interface ProviderModelPrice {
  input: number;
  cacheHit?: number;
  output: number;
}

export interface ProviderModel {
  id: string;
  contextWindow: number;
  /** Longest answer; default min(8192, contextWindow). */
  maxOutput?: number;
  /** Omitted: requests cost nothing (a self-hosted server). */
  price?: ProviderModelPrice;
}

export interface CustomProvider<TDate = string> {
  id: string;
  teamId: string;
  name: string;
  baseUrl: string;
  /** Whether a key is stored; the key itself is never returned. */
  configured: boolean;
  models: ProviderModel[];
  createdById: string;
  createdAt: TDate;
  updatedAt: TDate;
}

export interface CustomProviderList<TDate = string> {
  items: CustomProvider<TDate>[];
}

export interface CreateCustomProviderRequest {
  name: string;
  baseUrl: string;
  /** Optional: local servers often need none. */
  apiKey?: string;
  models?: ProviderModel[];
}

export interface UpdateCustomProviderRequest {
  name?: string;
  baseUrl?: string;
  /** A new key; null removes the stored one. */
  apiKey?: string | null;
  models?: ProviderModel[];
}

/** A model the provider's `GET /models` lists; `contextWindow` only when the server reports it. */
export interface DiscoveredModel {
  id: string;
  contextWindow: number | null;
}

export interface DiscoveredModelList {
  models: DiscoveredModel[];
}
