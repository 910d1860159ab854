import type { EventEnvelope } from '@h/db';

/**
 * Orders a session's log for rebuilding the conversation of run `currentRunId`. Runs of a session
 * execute one at a time, but a message for a later run is appended when it is posted, possibly in
 * the middle of the running run's events. Each run's `message.user` is therefore moved to just
 * before that run's `run.started`; messages of runs that never started (cancelled in the
 * queue, or queued behind the current run) are left out. The current run's message goes last when
 * the run has not emitted anything yet.
 */
export function orderForRebuild(events: EventEnvelope[], currentRunId: string): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  const deferred = new Map<string, EventEnvelope[]>();
  const started = new Set<string>();
  for (const e of events) {
    if (e.type === 'message.user' && e.runId && !started.has(e.runId)) {
      const list = deferred.get(e.runId) ?? [];
      list.push(e);
      deferred.set(e.runId, list);
      continue;
    }
    // Only run.started starts a run: a run cancelled in the queue gets run.cancelled, never started.
    if (e.runId && e.type === 'run.started' && !started.has(e.runId)) {
      started.add(e.runId);
      out.push(...(deferred.get(e.runId) ?? []));
      deferred.delete(e.runId);
    }
    out.push(e);
  }
  if (!started.has(currentRunId)) out.push(...(deferred.get(currentRunId) ?? []));
  return out;
}
