import { Injectable, Logger } from '@nestjs/common';
import { changeNote, type FileChangeRecorder } from '@h/agent';
import type { SessionEventData } from '@h/contracts';
import { AppConfig } from '@h/config';
import { AgentChangeRepository, EventRepository, RunRecord, toChangeSummary } from '@h/db';
import type { SandboxRecord } from '@h/sandbox';
import { lineCounts } from '@h/tools';
import { SandboxManager } from '@h/workspaces';
import type { RunTimings } from './run-timings';

/** How long a run goes at most without reading the log for rejects and reverts (reviewNotes). */
const REVIEW_READ_MS = 2_000;

/**
 * What a run segment hands the engine about the workspace's review: the changes it makes recorded
 * with both sides, the checkpoint before its first change, and the rejects and reverts people make
 * while it works.
 */
@Injectable()
export class RunSegmentHooks {
  private readonly logger = new Logger(RunSegmentHooks.name);
  /** Sessions the bus told of a `file.change.resolved` since their run last read the log for them. */
  private readonly reviewsPending = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly events: EventRepository,
    private readonly changes: AgentChangeRepository,
    private readonly sandboxes: SandboxManager,
  ) {}

  /** The bus told of a reject or revert in a session running here. */
  noteResolved(sessionId: string): void {
    this.reviewsPending.add(sessionId);
  }

  forget(sessionId: string): void {
    this.reviewsPending.delete(sessionId);
  }

  /**
   * Rejects and reverts made while this segment runs (the api appends `file.change.resolved` to the
   * log): asked before each model request so the agent hears of them at its next step. What was in
   * the log when the segment started is in the rebuilt conversation already.
   */
  reviewNotes(sessionId: string, after: number): () => Promise<{ changeIds: string[]; text: string }[]> {
    let seen = after;
    let readAt = performance.now();
    return async () => {
      // The log is read when the bus told of a resolution, and at least every REVIEW_READ_MS (a
      // publish can be lost): not before every model request, which cost a query per step.
      if (!this.reviewsPending.delete(sessionId) && performance.now() - readAt < REVIEW_READ_MS) return [];
      readAt = performance.now();
      const resolved = await this.events.list(sessionId, { after: seen, types: ['file.change.resolved'], limit: 100 });
      seen = resolved.at(-1)?.seq ?? seen;
      return resolved.flatMap((e) => {
        const data = e.data as SessionEventData<'file.change.resolved'>;
        const text = changeNote(data);
        return text ? [{ changeIds: data.changeIds, text }] : [];
      });
    };
  }

  /** Stores each call's file changes (before/after) for review; the engine logs `file.changed`. */
  changeRecorder(run: RunRecord, timings: RunTimings, written?: Set<string>): FileChangeRecorder {
    return {
      maxBytes: this.config.env.FILE_CHANGE_MAX_BYTES,
      record: async (toolCallId, captures) => {
        for (const c of captures) if (written && written.size < 1000) written.add(c.path);
        const rows = await timings.time('changes.record', () =>
          this.changes.createMany(
            { sessionId: run.sessionId, runId: run.id, toolCallId },
            captures.map((c) => ({ ...c, ...lineCounts(c.before, c.after) })),
          ),
        );
        return rows.map(toChangeSummary);
      },
    };
  }

  /**
   * Takes the run's checkpoint once (sandboxd checkpoint.create), before its first call that may
   * change files; a run resumed in a new segment keeps the one it has (`taken`, read by the claim;
   * the update below never replaces one either). A failure costs only the
   * fork's file restore for this run: logged, and the run goes on.
   */
  checkpointOnce(run: RunRecord, record: SandboxRecord, taken: string | null): () => Promise<void> {
    let done: Promise<void> | null = null;
    return () =>
      (done ??= (async () => {
        // `taken`: what the claim read (no read of our own on the way to the first change).
        if (taken) return;
        try {
          const client = await (await this.sandboxes.driver()).connect(record);
          const cp = await client.call('checkpoint.create', { maxFileBytes: this.config.env.CHECKPOINT_FILE_MAX_BYTES });
          await this.changes.setRunCheckpoint(run.id, cp.id);
        } catch (err) {
          this.logger.warn({ runId: run.id, err }, "could not take the run's workspace checkpoint; a fork will not restore files for this run");
        }
      })());
  }
}
