import type { Usage } from '@h/contracts';
import type { MessagesUsage } from './messages-usage';

interface AnthropicPrice {
  input: number;
  output: number;
  cacheRead: number;
  /** 5-minute cache writes (Claude Code's default breakpoints). */
  cacheWrite: number;
}

// USD per 1M tokens by model family: Anthropic's list prices for the 4.x models as this file was
// written (cache reads 0.1×, 5-minute cache writes 1.25× the input price). Not verifiable from
// these offline machines: an operator with other prices or another Anthropic-compatible host
// adjusts here. A model of no known family is billed as Sonnet.
const FAMILIES: Array<[RegExp, AnthropicPrice]> = [
  [/opus/i, { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }],
  [/haiku/i, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }],
  [/sonnet/i, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
];
const DEFAULT_PRICE = FAMILIES[2][1];

export function anthropicPrice(model: string): AnthropicPrice {
  return FAMILIES.find(([re]) => re.test(model))?.[1] ?? DEFAULT_PRICE;
}

/** USD of one request, to the micro-dollar (as runs and sessions store cost). */
export function messagesCost(model: string, u: MessagesUsage): number {
  const p = anthropicPrice(model);
  const usd = (u.inputTokens * p.input + u.cacheCreationInputTokens * p.cacheWrite + u.cacheReadInputTokens * p.cacheRead + u.outputTokens * p.output) / 1_000_000;
  return Math.round(usd * 1e6) / 1e6;
}

/**
 * H's per-request usage: the prompt is input + cache writes + cache reads (Anthropic reports them
 * apart); a cache read is a hit, everything else of the prompt a miss.
 */
export function toModelUsage(u: MessagesUsage): { promptTokens: number; completionTokens: number; cacheHitTokens: number; cacheMissTokens: number; reasoningTokens: number } {
  return {
    promptTokens: u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens,
    completionTokens: u.outputTokens,
    cacheHitTokens: u.cacheReadInputTokens,
    cacheMissTokens: u.inputTokens + u.cacheCreationInputTokens,
    reasoningTokens: 0,
  };
}

/** Running totals of one run segment, in the one usage shape. */
export class ClaudeUsageMeter {
  private totals: Usage = { requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0 };

  add(model: string, u: MessagesUsage): { request: ReturnType<typeof toModelUsage>; costUsd: number; totals: Usage } {
    const request = toModelUsage(u);
    const costUsd = messagesCost(model, u);
    const t = this.totals;
    this.totals = {
      requests: t.requests + 1,
      promptTokens: t.promptTokens + request.promptTokens,
      completionTokens: t.completionTokens + request.completionTokens,
      cacheHitTokens: t.cacheHitTokens + request.cacheHitTokens,
      cacheMissTokens: t.cacheMissTokens + request.cacheMissTokens,
      reasoningTokens: 0,
      costUsd: Math.round((t.costUsd + costUsd) * 1e6) / 1e6,
    };
    return { request, costUsd, totals: this.snapshot() };
  }

  snapshot(): Usage {
    return { ...this.totals };
  }
}
