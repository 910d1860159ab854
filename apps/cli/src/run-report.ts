import type { RunResult } from '@h/contracts/bot-api';
import { paint, type Output } from './progress';

const KIND_LETTER = { create: 'A', modify: 'M', delete: 'D', rename: 'R' } as const;

function seconds(run: RunResult): string {
  if (!run.startedAt || !run.finishedAt) return '';
  const s = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
  return ` in ${s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`}`;
}

export function usageLine(run: RunResult): string {
  const u = run.usage;
  const tokens = (u.promptTokens + u.completionTokens).toLocaleString('en-US');
  return `${u.requests} model request${u.requests === 1 ? '' : 's'} · ${tokens} tokens (${u.cacheHitTokens.toLocaleString('en-US')} cached) · $${u.costUsd.toFixed(4)}`;
}

/** What a person reads when a run ends (or stops to wait): outcome, summary, changed files, usage. */
export function printReport(out: Output, run: RunResult, url: string): void {
  const where = `${url}/workspaces/${run.workspaceId}?session=${run.sessionId}`;
  const lines: string[] = [''];
  if (run.status === 'completed') lines.push(paint(out, 32, `✓ completed${seconds(run)}`));
  else if (run.status === 'failed') lines.push(paint(out, 31, `✗ failed${seconds(run)}: ${run.error?.message ?? 'no reason given'}${run.error ? ` (${run.error.code})` : ''}`));
  else if (run.status === 'cancelled') lines.push(paint(out, 33, `■ cancelled${seconds(run)}`));
  else if (run.pendingPermission) {
    lines.push(paint(out, 33, `… waiting for approval of ${run.pendingPermission.toolName} (request ${run.pendingPermission.id})`));
    lines.push(`  Answer it in the IDE: ${where}`);
    lines.push('  (or start runs that never ask with --mode bypass)');
  } else lines.push(`… ${run.status}`);
  if (run.summary) lines.push('', run.summary.trim(), '');
  if (run.changes.length) {
    lines.push('Changed:');
    for (const c of run.changes) lines.push(`  ${KIND_LETTER[c.kind]} ${c.fromPath ? `${c.fromPath} → ` : ''}${c.path}${c.binary || c.tooLarge ? '' : ` (+${c.added} -${c.removed})`}`);
  }
  lines.push(paint(out, 2, usageLine(run)));
  lines.push(paint(out, 2, `run ${run.id} · h logs ${run.id} · h diff ${run.id}`));
  out.write(lines.join('\n') + '\n');
}
