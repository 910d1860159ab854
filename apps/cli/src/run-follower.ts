import type { EventEnvelope } from '@h/contracts/agent-events';
import type { RunResult } from '@h/contracts/bot-api';
import type { ApiClient } from './api-client';
import { decisionFor, type Answer } from './approvals';
import { sessionEvents } from './event-stream';
import { CliError, EXIT, type ExitCode } from './exit-codes';
import { describeToolCall, type ProgressView } from './progress';

const END_EVENTS = new Set(['run.done', 'run.failed', 'run.cancelled']);

export interface FollowOptions {
  /** Show each event (null: quiet, e.g. --json). */
  view: ProgressView | null;
  /** Asks a person about a request; null when nobody can answer here (the follow then ends). */
  ask: ((question: string, preview: string | null) => Promise<Answer>) | null;
}

export function runPath(id: string): string {
  return `/api/v1/runs/${encodeURIComponent(id)}`;
}

/**
 * Follows one run over its session's event stream until it ends, answering its permission
 * requests through `ask`. Without `ask`, a request ends the follow with the waiting run. A request
 * seen in the replay that is already answered (or answered meanwhile in the IDE) is passed over:
 * the run's own state says which request is pending.
 */
export async function followRun(client: ApiClient, run: RunResult, options: FollowOptions): Promise<RunResult> {
  let allowRest = false;
  for await (const event of sessionEvents(client, run.sessionId, 0)) {
    if (event.runId !== run.id) continue;
    options.view?.event(event);
    if (event.type === 'permission.requested') {
      const now = await client.get<RunResult>(runPath(run.id));
      const pending = now.pendingPermission;
      if (!pending || pending.id !== (event.data as { permissionId: string }).permissionId) continue;
      if (!options.ask) return now;
      const answer: Answer = allowRest ? 'yes' : await options.ask(`Allow ${describeToolCall(pending.toolName, JSON.stringify(pending.input ?? {}))}?`, previewOf(event));
      if (answer === 'always') allowRest = true;
      try {
        await client.post(`/api/v1/permissions/${encodeURIComponent(pending.id)}`, decisionFor(answer));
      } catch (err) {
        // Someone answered it in the IDE first: their decision stands, the run goes on.
        if (!(err instanceof CliError && /ALREADY_DECIDED/.test(err.message))) throw err;
      }
    }
    if (END_EVENTS.has(event.type)) return client.get<RunResult>(runPath(run.id));
  }
  throw new Error('the event stream ended');
}

function previewOf(event: EventEnvelope): string | null {
  const preview = (event.data as { preview?: { kind: string; diff?: string } }).preview;
  return preview?.kind === 'diff' && preview.diff ? preview.diff : null;
}

export function exitCodeOf(run: RunResult): ExitCode {
  if (run.status === 'completed') return EXIT.done;
  if (run.status === 'failed') return EXIT.failed;
  if (run.status === 'cancelled') return EXIT.cancelled;
  if (run.pendingPermission || run.status === 'waiting_permission') return EXIT.needsApproval;
  return EXIT.done;
}
