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
 * An external MCP server's rule fits in the same place: its tools are commands, so `ask` (the
 * default) asks in `approve` mode like any command, and `allow` runs them without asking.
 */
export function authorizeCall(mode: PermissionMode, category: string, decision?: PermissionDecision, approval?: 'ask' | 'allow'): ToolAuthorization {
  if (mode !== 'approve' || category === 'read' || approval === 'allow') return { behavior: 'allow' };
  if (!decision) return { behavior: 'ask' };
  if (decision.behavior === 'deny') return { behavior: 'deny', message: decision.message ?? undefined };
  return { behavior: 'allow', updatedArguments: decision.updatedInput ? JSON.stringify(decision.updatedInput) : undefined };
}
