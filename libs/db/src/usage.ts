// Token usage and cost as stored on runs and sessions (the contracts' one `Usage` shape), and the
// columns that hold it.
import type { Usage } from '@h/contracts';

export type UsageTotals = Usage;

export const ZERO_USAGE: UsageTotals = Object.freeze({
  requests: 0,
  promptTokens: 0,
  completionTokens: 0,
  cacheHitTokens: 0,
  cacheMissTokens: 0,
  reasoningTokens: 0,
  costUsd: 0,
});

/** Prisma `select` of the usage columns (same names on Run and AgentSession). */
export const usageSelect = {
  requests: true,
  promptTokens: true,
  completionTokens: true,
  cacheHitTokens: true,
  cacheMissTokens: true,
  reasoningTokens: true,
  costUsd: true,
} as const;

type UsageRow = { [K in keyof typeof usageSelect]: K extends 'costUsd' ? unknown : number };

/** Splits the usage columns off a row: `[usage, rest]` (cost is a Decimal column). */
export function splitUsage<R extends UsageRow>(row: R): [UsageTotals, Omit<R, keyof UsageRow>] {
  const { requests, promptTokens, completionTokens, cacheHitTokens, cacheMissTokens, reasoningTokens, costUsd, ...rest } = row;
  return [{ requests, promptTokens, completionTokens, cacheHitTokens, cacheMissTokens, reasoningTokens, costUsd: Number(costUsd) }, rest];
}
