// Token usage and cost as stored on runs and sessions, and its conversions to and from the
// engine's per-run usage (which names cost `cost` and carries reasoning tokens).
import type { RunUsage, Usage } from '@h/contracts';

// Both shapes are the contracts' (session-api.ts `Usage`, agent-events.ts `RunUsage`); these are the
// one conversion between them.
export type UsageTotals = Usage;
export type EngineUsage = RunUsage;

export const ZERO_USAGE: UsageTotals = Object.freeze({
  requests: 0,
  promptTokens: 0,
  completionTokens: 0,
  cacheHitTokens: 0,
  cacheMissTokens: 0,
  costUsd: 0,
});

/** Prisma `select` of the usage columns (same names on Run and AgentSession). */
export const usageSelect = {
  requests: true,
  promptTokens: true,
  completionTokens: true,
  cacheHitTokens: true,
  cacheMissTokens: true,
  costUsd: true,
} as const;

type UsageRow = { [K in keyof typeof usageSelect]: K extends 'costUsd' ? unknown : number };

/** Splits the usage columns off a row: `[usage, rest]`. */
export function splitUsage<R extends UsageRow>(row: R): [UsageTotals, Omit<R, keyof UsageRow>] {
  const { requests, promptTokens, completionTokens, cacheHitTokens, cacheMissTokens, costUsd, ...rest } = row;
  return [{ requests, promptTokens, completionTokens, cacheHitTokens, cacheMissTokens, costUsd: Number(costUsd) }, rest];
}

/** Prisma `data` that adds `usage` to the stored totals. */
export function usageIncrement(usage: UsageTotals) {
  return {
    requests: { increment: usage.requests },
    promptTokens: { increment: usage.promptTokens },
    completionTokens: { increment: usage.completionTokens },
    cacheHitTokens: { increment: usage.cacheHitTokens },
    cacheMissTokens: { increment: usage.cacheMissTokens },
    costUsd: { increment: usage.costUsd },
  };
}

export function toEngineUsage(u: UsageTotals): EngineUsage {
  const { costUsd, ...rest } = u;
  return { ...rest, reasoningTokens: 0, cost: costUsd };
}
