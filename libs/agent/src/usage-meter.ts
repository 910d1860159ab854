import type { RunUsage } from '@h/contracts';
import { computeCost, type ModelUsage } from '@h/llm';

/** Usage accumulated over one run: requests, tokens, cache hits and misses, cost. */
export class UsageMeter {
  private readonly totals: RunUsage = {
    requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, cost: 0,
  };

  constructor(private readonly model: string) {}

  /** Records one model request; returns its cost in USD. */
  add(usage: ModelUsage | undefined): number {
    this.totals.requests += 1;
    if (!usage) return 0;
    const cost = computeCost(this.model, usage);
    this.totals.promptTokens += usage.promptTokens;
    this.totals.completionTokens += usage.completionTokens;
    this.totals.cacheHitTokens += usage.cacheHitTokens;
    this.totals.cacheMissTokens += usage.cacheMissTokens;
    this.totals.reasoningTokens += usage.reasoningTokens ?? 0;
    this.totals.cost += cost;
    return cost;
  }

  snapshot(): RunUsage {
    return { ...this.totals };
  }
}
