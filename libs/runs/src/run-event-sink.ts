import { Injectable } from '@nestjs/common';
import type { AgentEvent } from '@h/contracts';
import { AppConfig } from '@h/config';
import { EventBusRepository, EventRepository, RunRecord, UsageTotals } from '@h/db';
import { DeltaCoalescer } from './delta-coalescer';
import { RunEventWriter } from './run-event-writer';
import { recordBatchMetrics } from './run-telemetry';
import type { RunTimings } from './run-timings';
import { addUsage, requestUsage } from './run-usage';

/**
 * Where a worker's run segments write what their engine emits: batches appended in one statement
 * (fenced by the lease, usage and derived state included) and published in order by the segment's
 * RunEventWriter, token deltas coalesced per event-loop turn and published between them. It keeps
 * the newest seq of each session running here (its own appends and, through `noteSeq`, other
 * writers' from the bus), so a delta says which event it follows without a database read.
 */
@Injectable()
export class RunEventSink {
  private readonly sessionSeqs = new Map<string, number>();
  private readonly coalescers = new WeakMap<RunEventWriter, DeltaCoalescer>();

  constructor(
    private readonly config: AppConfig,
    private readonly events: EventRepository,
    private readonly bus: EventBusRepository,
  ) {}

  /** A segment of the session starts here, its log read up to `seq`. */
  track(sessionId: string, seq: number): void {
    this.sessionSeqs.set(sessionId, Math.max(this.sessionSeqs.get(sessionId) ?? 0, seq));
  }

  forget(sessionId: string): void {
    this.sessionSeqs.delete(sessionId);
  }

  runsHere(sessionId: string): boolean {
    return this.sessionSeqs.has(sessionId);
  }

  /** A seq seen on the bus or appended here: kept only for sessions running here. */
  noteSeq(sessionId: string, seq: number): void {
    const known = this.sessionSeqs.get(sessionId);
    if (known !== undefined && seq > known) this.sessionSeqs.set(sessionId, seq);
  }

  /** The segment's writer: events batched and persisted before they are published (run-event-writer.ts). */
  writer(run: RunRecord, leaseId: string, model: string, timings: RunTimings, onFailure: () => void): RunEventWriter {
    return new RunEventWriter((batch, durable) => this.writeBatch(run, leaseId, batch, durable, timings, model), onFailure);
  }

  /**
   * An engine event: deltas coalesced, anything else queued after them; `afterUsage` runs once a
   * model request's usage is queued (the budget's check before its calls run).
   */
  async record(run: RunRecord, writer: RunEventWriter, event: AgentEvent, timings: RunTimings, afterUsage?: () => Promise<void>): Promise<void> {
    const deltas = this.deltasOf(run, writer, timings);
    if (event.type !== 'text.delta' && event.type !== 'thinking.delta') {
      deltas.flush(); // the deltas before it go first
      timings.mark(event.type);
      await writer.push(event);
      if (event.type === 'usage' && afterUsage) await afterUsage();
      return;
    }
    deltas.push(event.type, event.data.delta);
  }

  /** The segment's token deltas, coalesced per event-loop turn (delta-coalescer.ts), by writer. */
  private deltasOf(run: RunRecord, writer: RunEventWriter, timings: RunTimings): DeltaCoalescer {
    let deltas = this.coalescers.get(writer);
    if (deltas) return deltas;
    // A delta goes out once the events before it are persisted and published (the writer orders
    // it), so the seq it follows is the last one written by then; the engine does not wait for it.
    deltas = new DeltaCoalescer(({ type, delta: text, ts }) =>
      writer.pushEphemeral(() => {
        // Set before the engine started, kept up by every append: read synchronously, so the
        // publish is issued in its turn (the writer relies on that for the order).
        const afterSeq = this.sessionSeqs.get(run.sessionId) ?? 0;
        const delta = { sessionId: run.sessionId, runId: run.id, afterSeq, ts, type, data: { delta: text } };
        return timings.time('publish.delta', () => this.bus.publishEphemeral(delta));
      }),
    );
    this.coalescers.set(writer, deltas);
    return deltas;
  }

  /**
   * One batch of the engine's events in one statement: appended (fenced by the lease), with the
   * usage of its model requests added to the totals and the derived state (todos, summary) merged;
   * the writer publishes it after (in order).
   */
  private async writeBatch(run: RunRecord, leaseId: string, batch: AgentEvent[], durable: boolean, timings: RunTimings, model: string): Promise<() => Promise<void>> {
    let usage: UsageTotals | undefined;
    const state: Record<string, unknown> = {};
    for (const event of batch) {
      if (event.type === 'usage') usage = addUsage(usage, requestUsage(event.data));
      // The session's todos and summary are its main agent's: a sub-agent's stay in its own log.
      if (run.parentRunId) continue;
      if (event.type === 'todos.updated') state.todos = event.data.todos;
      if (event.type === 'summary.written') state.summary = event.data.summary;
    }
    const appended = await timings.time('append', () =>
      this.events.append(run.sessionId, batch, {
        runId: run.id,
        leaseId,
        usage,
        model,
        state: Object.keys(state).length ? state : undefined,
        durable: durable || this.config.env.EVENT_COMMIT === 'every-batch',
      }),
    );
    this.noteSeq(run.sessionId, appended.at(-1)?.seq ?? 0);
    // Counted once stored, as the run's usage totals are.
    recordBatchMetrics(run.teamId, model, batch);
    return () => timings.time('publish', () => this.bus.publishEvents(appended));
  }
}
