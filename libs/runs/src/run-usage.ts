import type { AgentEvent } from '@h/contracts';
import type { UsageTotals } from '@h/db';

// How a batch's usage events add up to what the run's totals gain in the same append (both engines).

export function addUsage(a: UsageTotals | undefined, b: UsageTotals): UsageTotals {
  if (!a) return b;
  return {
    requests: a.requests + b.requests,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cacheHitTokens: a.cacheHitTokens + b.cacheHitTokens,
    cacheMissTokens: a.cacheMissTokens + b.cacheMissTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

export function requestUsage(data: Extract<AgentEvent, { type: 'usage' }>['data']): UsageTotals {
  const r = data.request;
  return {
    requests: 1,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    cacheHitTokens: r.cacheHitTokens,
    cacheMissTokens: r.cacheMissTokens,
    reasoningTokens: r.reasoningTokens ?? 0,
    costUsd: data.costUsd,
  };
}
