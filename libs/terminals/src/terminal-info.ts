import type { TerminalInfo } from '@h/contracts';
import type { PtyInfo } from '@h/sandbox-protocol';

/** A sandbox PTY as the IDE sees it (its meta says who opened it and why). */
export function terminalInfo(workspaceId: string, p: PtyInfo): TerminalInfo {
  const m = p.meta ?? {};
  return {
    id: p.ptyId,
    workspaceId,
    title: m.title ?? (m.command ? m.command : 'Terminal'),
    openedBy: m.openedBy ?? null,
    agent: m.agent === true,
    sessionId: m.sessionId ?? null,
    command: m.command ?? null,
    cols: p.cols,
    rows: p.rows,
    createdAt: new Date(p.createdAt ?? Date.now()).toISOString(),
  };
}
