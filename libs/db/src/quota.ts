// Per-team quotas (TEAM_MAX_* in libs/config). Repositories check them inside the transaction that
// creates the thing counted, so parallel requests cannot overshoot; services turn the error into a
// 4xx answer (api) or a failed run (worker) with the same message.
export type QuotaKind = 'workspaces' | 'runningSandboxes' | 'activeRuns';

const WHAT: Record<QuotaKind, { noun: string; variable: string; advice: string }> = {
  workspaces: { noun: 'workspaces', variable: 'TEAM_MAX_WORKSPACES', advice: 'delete one' },
  runningSandboxes: {
    noun: 'sandboxes running',
    variable: 'TEAM_MAX_RUNNING_SANDBOXES',
    advice: 'wait until one stops (idle sandboxes stop after SANDBOX_IDLE_MINUTES)',
  },
  activeRuns: { noun: 'agent runs queued or running', variable: 'TEAM_MAX_ACTIVE_RUNS', advice: 'wait for some to finish or cancel one' },
};

export function quotaVariable(kind: QuotaKind): string {
  return WHAT[kind].variable;
}

export class QuotaExceededError extends Error {
  constructor(
    readonly kind: QuotaKind,
    readonly used: number,
    readonly limit: number,
  ) {
    const w = WHAT[kind];
    super(`This team has ${used} of ${limit} ${w.noun}; ${w.advice}, or ask the instance admin to raise ${w.variable}.`);
    this.name = 'QuotaExceededError';
  }
}
