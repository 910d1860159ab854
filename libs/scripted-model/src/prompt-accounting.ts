// Token figures the scripted server reports, computed the way the issue asks: ~4 characters a
// token, and a cache hit for the longest common prefix with the previous request of the same
// conversation, counted in whole 64-token storage units as DeepSeek's context cache does.

export const CHARS_PER_TOKEN = 4;
export const CACHE_UNIT_TOKENS = 64;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * The text the model "sees": tool definitions first, then every message in order, each as JSON.
 * Anything that changes early in it (a rewritten system prompt, a reordered tool) shifts
 * everything after it out of the cache, as on the real service.
 */
export function renderPrompt(body: { tools?: unknown; messages?: unknown }): string {
  const tools = Array.isArray(body.tools) ? body.tools.map((t) => JSON.stringify(t)) : [];
  const messages = Array.isArray(body.messages) ? body.messages.map((m) => JSON.stringify(m)) : [];
  return [...tools, ...messages].join('\n');
}

export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export interface PromptUsage {
  promptTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  /** Share (0..1) of this prompt's characters that repeat the previous prompt as a prefix. */
  prefixShare: number;
}

export function promptUsage(prompt: string, previous: string | undefined): PromptUsage {
  const promptTokens = estimateTokens(prompt);
  const prefixChars = previous === undefined ? 0 : commonPrefixLength(prompt, previous);
  const prefixTokens = Math.floor(prefixChars / CHARS_PER_TOKEN);
  const cacheHitTokens = Math.min(promptTokens, Math.floor(prefixTokens / CACHE_UNIT_TOKENS) * CACHE_UNIT_TOKENS);
  return {
    promptTokens,
    cacheHitTokens,
    cacheMissTokens: promptTokens - cacheHitTokens,
    prefixShare: prompt.length === 0 ? 0 : prefixChars / prompt.length,
  };
}
