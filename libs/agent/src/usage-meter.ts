import type { Usage } from '@h/contracts';
import { computeCost, type ModelInfo, type ModelUsage } from '@h/llm';

/** Usage accumulated over one run: requests, tokens, cache hits and misses, cost. */
export class UsageMeter {
  private readonly totals: Usage = {
    requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0,
  };

  /** A catalog model id, or the model's own info (its prices) for a team provider's model. */
  constructor(private readonly model: string | Pick<ModelInfo, 'pricePerMillion'>) {}

  /** Records one model request; returns its cost in USD. */
  add(usage: ModelUsage | undefined): number {
    this.totals.requests += 1;
    if (!usage) return 0;
    // Micro-dollars, as runs and sessions store cost (Decimal(14, 6)): the log's totals and the API's
    // then agree to the last digit instead of drifting by the rounding of each stored addition.
    const cost = toMicroDollars(computeCost(this.model, usage));
    this.totals.promptTokens += usage.promptTokens;
    this.totals.completionTokens += usage.completionTokens;
    this.totals.cacheHitTokens += usage.cacheHitTokens;
    this.totals.cacheMissTokens += usage.cacheMissTokens;
    this.totals.reasoningTokens += usage.reasoningTokens ?? 0;
    this.totals.costUsd = toMicroDollars(this.totals.costUsd + cost);
    return cost;
  }

  snapshot(): Usage {
    return { ...this.totals };
  }
}

function toMicroDollars(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
