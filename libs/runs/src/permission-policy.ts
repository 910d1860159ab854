import type { ToolAuthorization } from '@h/agent';

export type PermissionMode = 'approve' | 'bypass' | 'skip';

export interface PermissionDecision {
  behavior: 'allow' | 'deny';
  updatedInput: Record<string, unknown> | null;
  message: string | null;
}

/**
 * What a session's permission mode does with one tool call. Only `approve` asks (and only for
 * commands, writes and deletes; reads run freely); `bypass` and `skip` both allow every call, and
 * the console describes them so (apps/web permission-modes.ts). A recorded decision answers the ask.
 */
export function authorizeCall(mode: PermissionMode, category: string, decision?: PermissionDecision): ToolAuthorization {
  if (mode !== 'approve' || category === 'read') return { behavior: 'allow' };
  if (!decision) return { behavior: 'ask' };
  if (decision.behavior === 'deny') return { behavior: 'deny', message: decision.message ?? undefined };
  return { behavior: 'allow', updatedArguments: decision.updatedInput ? JSON.stringify(decision.updatedInput) : undefined };
}
