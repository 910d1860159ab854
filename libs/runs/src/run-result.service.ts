import { HttpStatus, Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { ACTIVE_RUN_STATUSES, FINISHED_RUN_STATUSES, RUN_RESULT_DIFF_MAX_CHARS, RUN_WAIT_MAX_SECONDS, type RunListFilter } from '@h/contracts';
import {
  AgentChangeRepository,
  AgentSessionRepository,
  EventBusRepository,
  EventRepository,
  PermissionRepository,
  RunRecord,
  RunRepository,
  toChangeSummary,
  type RunOutcome,
  type RunStatusName,
} from '@h/db';
import { AppException } from '@h/http';
import type { Principal } from '@h/identity';
import type { RunResultDto, WorkspaceRunListDto } from './bot-run.dto';
import { inEffect, runDiff } from './run-diff';
import { toPermissionDto } from './permission.service';
import { RunService } from './run.service';

/** Events after which a waiting reader should look again: the run ended, or it asks a person. */
const WAKE_EVENTS = new Set(['run.done', 'run.failed', 'run.cancelled', 'permission.requested']);

const LIST_FILTERS: Record<RunListFilter, readonly RunStatusName[]> = {
  queued: ['queued'],
  running: ['running'],
  waiting_permission: ['waiting_permission'],
  waiting_children: ['waiting_children'],
  completed: ['completed'],
  failed: ['failed'],
  cancelled: ['cancelled'],
  active: ACTIVE_RUN_STATUSES,
  finished: FINISHED_RUN_STATUSES,
};

/**
 * A run as bots read it (summary, diff, usage, the request it waits on), the long poll that waits
 * for its outcome, and a workspace's run list. The long poll wakes on the run's own events from
 * the Redis fan-out the streams use (published after commit, so a wake always finds the new state
 * in Postgres); it never polls the database in a loop.
 */
@Injectable()
export class RunResultService {
  constructor(
    private readonly runs: RunRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly events: EventRepository,
    private readonly changes: AgentChangeRepository,
    private readonly permissions: PermissionRepository,
    private readonly bus: EventBusRepository,
    private readonly runDtos: RunService,
    private readonly config: AppConfig,
  ) {}

  /** Long polls waiting now in this process, per principal. */
  private readonly waits = new Map<string, number>();

  /**
   * Answers once the run ended or waits on a permission, or after `waitSeconds` (capped at
   * RUN_WAIT_MAX_SECONDS). A caller holds at most STREAMS_PER_PRINCIPAL waits at once per api
   * process (429 TOO_MANY_STREAMS beyond), as for live streams: each holds a connection.
   */
  async get(id: string, waitSeconds = 0, principal?: Principal): Promise<RunResultDto> {
    const run = await this.load(id);
    const wait = Math.min(Math.max(waitSeconds, 0), RUN_WAIT_MAX_SECONDS) * 1000;
    if (wait === 0) return this.result(run);
    const release = principal ? this.holdWait(principal) : () => undefined;
    try {
      return await this.waitFor(run, wait);
    } finally {
      release();
    }
  }

  private holdWait(principal: Principal): () => void {
    const key = principal.kind === 'token' ? `token:${principal.tokenId}` : `user:${principal.userId}`;
    const limit = this.config.env.STREAMS_PER_PRINCIPAL;
    const held = this.waits.get(key) ?? 0;
    if (held >= limit) {
      throw new AppException(
        HttpStatus.TOO_MANY_REQUESTS,
        'TOO_MANY_STREAMS',
        `At most ${limit} long polls (?wait=) may wait at once per user or API token (STREAMS_PER_PRINCIPAL); let one answer first.`,
      );
    }
    this.waits.set(key, held + 1);
    return () => {
      const now = (this.waits.get(key) ?? 1) - 1;
      if (now > 0) this.waits.set(key, now);
      else this.waits.delete(key);
    };
  }

  private async waitFor(run: RunRecord, wait: number): Promise<RunResultDto> {
    const id = run.id;
    let wake: () => void = () => undefined;
    // Subscribed before the state is read again, so an event between the two is not missed.
    const off = await this.bus.onMessage((sessionId, message) => {
      if (sessionId === run.sessionId && message.kind === 'event' && message.event.runId === id && WAKE_EVENTS.has(message.event.type)) wake();
    });
    const deadline = Date.now() + wait;
    try {
      for (;;) {
        const result = await this.result(await this.load(id));
        if (FINISHED_RUN_STATUSES.includes(result.status) || result.pendingPermission || Date.now() >= deadline) return result;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now());
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      off();
    }
  }

  /** The run's whole diff (GET /runs/:id/diff), never cut. */
  async diff(id: string): Promise<string> {
    await this.load(id);
    return runDiff(await this.changes.listByRun(id));
  }

  async listByWorkspace(workspaceId: string, query: { status?: RunListFilter; limit?: number }): Promise<WorkspaceRunListDto> {
    const runs = await this.runs.listByWorkspace(workspaceId, { statuses: query.status ? [...LIST_FILTERS[query.status]] : undefined, limit: query.limit ?? 20 });
    const outcomes = await this.events.runOutcomes(runs.map((r) => r.id));
    const items = await Promise.all(
      runs.map(async ({ title, ...run }) => ({
        ...(await this.runDtos.toDto(withLoggedEnd(run, outcomes.get(run.id)?.end ?? null))),
        workspaceId,
        title: title || 'New session',
        summary: outcomes.get(run.id)?.summary ?? null,
      })),
    );
    return { items };
  }

  async result(stored: RunRecord): Promise<RunResultDto> {
    const session = await this.sessions.findById(stored.sessionId);
    if (!session) throw AppException.notFound('Run');
    const [outcomes, changes, pending] = await Promise.all([
      this.events.runOutcomes([stored.id]),
      this.changes.listByRun(stored.id),
      ACTIVE_RUN_STATUSES.includes(stored.status) ? this.permissions.findPendingForRun(stored.id) : null,
    ]);
    const outcome = outcomes.get(stored.id);
    const run = withLoggedEnd(stored, outcome?.end ?? null);
    const dto = await this.runDtos.toDto(run);
    const full = runDiff(changes);
    return {
      ...dto,
      // The request is committed before the run is marked waiting (agent-run.job.ts conclude):
      // for that moment the run already waits on a person, whatever the row says.
      status: pending && run.status === 'running' ? 'waiting_permission' : dto.status,
      workspaceId: session.workspaceId,
      title: session.title || 'New session',
      summary: outcome?.summary ?? null,
      reply: outcome?.reply ?? null,
      changes: inEffect(changes).map(toChangeSummary),
      diff: full.length > RUN_RESULT_DIFF_MAX_CHARS ? full.slice(0, RUN_RESULT_DIFF_MAX_CHARS) : full,
      diffTruncated: full.length > RUN_RESULT_DIFF_MAX_CHARS,
      pendingPermission: pending && ACTIVE_RUN_STATUSES.includes(run.status) ? toPermissionDto(pending) : null,
    };
  }

  private async load(id: string): Promise<RunRecord> {
    const run = await this.runs.findById(id);
    if (!run) throw AppException.notFound('Run');
    return run;
  }
}

const LOGGED_END_STATUS = { 'run.done': 'completed', 'run.failed': 'failed', 'run.cancelled': 'cancelled' } as const;

/**
 * The engine appends (and publishes) a run's terminal event before the worker marks the row
 * (agent-run.job.ts finish): the log is the record, and a worker that dies in between has the
 * next one record that same end. So a reader woken by the event sees the end it announced.
 */
function withLoggedEnd(run: RunRecord, end: RunOutcome['end']): RunRecord {
  if (!end || !ACTIVE_RUN_STATUSES.includes(run.status)) return run;
  const error = end.type === 'run.failed' ? { code: end.data.code ?? 'INTERNAL', message: end.data.message ?? '' } : null;
  return { ...run, status: LOGGED_END_STATUS[end.type], error, usage: end.data.usage ?? run.usage, finishedAt: end.ts };
}
