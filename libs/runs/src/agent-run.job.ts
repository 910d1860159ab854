import { Injectable, Logger } from '@nestjs/common';
import { INTERRUPTED_RESULT, rebuildConversation, runAgent, type AgentRunResult, type FileChangeRecorder, type ToolAuthorization } from '@h/agent';
import type { AgentEvent, ErrorCode, Workspace } from '@h/contracts';
import { AppConfig } from '@h/config';
import {
  AgentChangeRepository,
  AgentSessionRecord,
  AgentSessionRepository,
  EventBusRepository,
  EventEnvelope,
  EventRepository,
  LeaseLostError,
  PermissionRepository,
  QuotaExceededError,
  RunRecord,
  RunRepository,
  toChangeSummary,
  ToolOutputRepository,
  UsageTotals,
  WorkspaceRepository,
  ZERO_USAGE,
} from '@h/db';
import { JobName, JobPayload, OnJob } from '@h/jobs';
import { DeepSeekProvider, registerConfiguredModels, type ModelProvider } from '@h/llm';
import { ProviderSecretReader } from '@h/providers';
import { SandboxTerminalHost, type SandboxRecord } from '@h/sandbox';
import { lineCounts } from '@h/tools';
import { SandboxManager } from '@h/workspaces';
import { apiErrorCode } from './engine-error-codes';
import { orderForRebuild } from './event-order';
import { permissionPreview } from './permission-preview';
import { authorizeCall, type PermissionDecision } from './permission-policy';
import { RunDispatcher } from './run-dispatcher.service';
import { RunEventWriter } from './run-event-writer';
import { RunTimings } from './run-timings';
import { SessionOutputStore } from './session-output.store';

const TERMINAL_STATUS = { 'run.done': 'completed', 'run.failed': 'failed', 'run.cancelled': 'cancelled' } as const;

type Decision = PermissionDecision;

class RunFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Executes (or resumes) one agent run inside the workspace's sandbox. Everything it knows comes
 * from Postgres: the conversation is rebuilt from the event log, decisions from permission events,
 * and every event the engine emits is appended (gapless seq, fenced by this worker's lease) before
 * it is published. A run that needs approval parks itself and ends the job; a killed worker's run
 * is picked up by another worker through BullMQ's stalled-job recovery and resumes from the log.
 */
@Injectable()
export class AgentRunJob {
  private readonly logger = new Logger(AgentRunJob.name);
  private readonly controllers = new Map<string, AbortController>();
  /**
   * The newest seq of each session this worker runs, from its own appends and the event bus (other
   * writers' appends): token deltas say which event they follow without a database read each.
   */
  private readonly sessionSeqs = new Map<string, number>();
  private busSubscriptions: Promise<unknown> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly events: EventRepository,
    private readonly permissions: PermissionRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly bus: EventBusRepository,
    private readonly dispatcher: RunDispatcher,
    private readonly sandboxes: SandboxManager,
    private readonly secrets: ProviderSecretReader,
    private readonly toolOutputs: ToolOutputRepository,
    private readonly changes: AgentChangeRepository,
  ) {
    registerConfiguredModels(config.env.MODEL_CATALOG);
  }

  @OnJob(JobName.AgentRun)
  async handle({ runId }: JobPayload<JobName.AgentRun>): Promise<void> {
    this.busSubscriptions ??= Promise.all([
      this.bus.onCancel((id) => this.controllers.get(id)?.abort()),
      this.bus.onMessage((sessionId, message) => {
        if (message.kind === 'event') this.noteSeq(sessionId, message.event.seq);
      }),
    ]);
    await this.busSubscriptions;
    const timings = new RunTimings();
    const claim = await timings.time('claim', () => this.runs.claim(runId));
    if (!claim) return; // finished, cancelled or parked meanwhile
    const { run, leaseId } = claim;
    const controller = new AbortController();
    this.controllers.set(runId, controller);
    try {
      await this.execute(run, leaseId, controller, timings);
    } catch (err) {
      if (err instanceof LeaseLostError) {
        this.logger.warn({ runId }, 'another worker took over this run; stopping here');
        return;
      }
      const failure = err instanceof RunFailure ? err : new RunFailure('INTERNAL', 'The run stopped on an internal error; it was logged.');
      if (!(err instanceof RunFailure)) this.logger.error({ runId, err }, 'run crashed');
      await this.finish(run, leaseId, 'failed', { code: failure.code, message: failure.message }, {
        type: 'run.failed',
        data: { code: failure.code, message: failure.message, usage: ZERO_USAGE },
      });
    } finally {
      this.controllers.delete(runId);
      this.sessionSeqs.delete(run.sessionId);
      await timings.time('dispatch', () => this.dispatcher.dispatch(run.teamId));
      this.logger.debug({ runId, timings: timings.summary() }, 'run segment timings');
    }
  }

  private async execute(run: RunRecord, leaseId: string, controller: AbortController, timings: RunTimings): Promise<void> {
    const session = await timings.time('load.session', () => this.sessions.findById(run.sessionId));
    if (!session) throw new RunFailure('SESSION_GONE', 'The session was deleted.');
    // The log, the workspace row and the provider key are independent reads: in parallel.
    const workspacePending = timings.time('load.workspace', () => this.workspaces.findById(session.workspaceId));
    const providerPending = timings.time('load.provider', () => this.provider(session));
    for (const p of [workspacePending, providerPending]) p.catch(() => undefined); // awaited below, or moot
    const stored = await timings.time('load.events', () => this.events.listAll(session.id));
    // The engine logged how the run ended and the worker died before marking it: record that end
    // instead of running the agent (and asking the model) a second time.
    const ended = stored.find((e) => e.runId === run.id && Object.hasOwn(TERMINAL_STATUS, e.type));
    if (ended) {
      const data = ended.data as { code?: string; message?: string };
      const error = ended.type === 'run.failed' ? { code: apiErrorCode(data.code ?? 'INTERNAL'), message: data.message ?? '' } : null;
      await this.finish(run, leaseId, TERMINAL_STATUS[ended.type as keyof typeof TERMINAL_STATUS], error);
      return;
    }
    if (run.cancelRequestedAt) {
      await this.finish(run, leaseId, 'cancelled', null, { type: 'run.cancelled', data: { usage: ZERO_USAGE } });
      return;
    }
    const workspaceRow = await workspacePending;
    if (!workspaceRow) throw new RunFailure('WORKSPACE_GONE', 'The workspace was deleted.');
    const provider = await providerPending;

    const interrupted = await this.closeInterruptedCalls(run, leaseId, stored);
    const tRebuild = performance.now();
    this.sessionSeqs.set(run.sessionId, Math.max(this.sessionSeqs.get(run.sessionId) ?? 0, [...stored, ...interrupted].at(-1)?.seq ?? 0));
    const log = orderForRebuild([...stored, ...interrupted], run.id);
    const decisions = this.decisionsFor(log, run.id);
    // Calls of this run still open never started: the rest of a batch a killed worker did not
    // reach, or a call that waited for a decision. The resumed run executes them (asking again
    // where the mode says so); closing them with a synthetic result would leave calls in the log
    // that have no tool.end.
    const conversation = rebuildConversation(log, { keepOpenCalls: true });
    timings.add('rebuild', performance.now() - tRebuild);
    // Todos belong to the run that wrote them: the session's stored list must not show an earlier
    // run's plan while this one runs (the engine already starts this run without it).
    const storedTodos = (session.state as { todos?: unknown[] }).todos;
    if (storedTodos?.length && conversation.todos.length === 0) await this.sessions.mergeState(session.id, { todos: [] });

    let sandbox;
    try {
      sandbox = await timings.time('sandbox.open', () => this.sandboxes.open(workspaceRow));
    } catch (err) {
      if (err instanceof QuotaExceededError) throw new RunFailure('QUOTA_EXCEEDED', err.message);
      this.logger.error({ runId: run.id, err }, 'sandbox unavailable');
      throw new RunFailure('SANDBOX_UNAVAILABLE', 'The workspace sandbox could not be started. Retry; if it persists, an admin can find the cause in the worker log.');
    }

    const checkpoint = this.checkpointOnce(run, sandbox.record);
    // Events are written in batches, one commit each, ahead of every model request and every
    // call that changes something (see RunEventWriter); a failed write stops the engine.
    const writer = new RunEventWriter(
      (batch) => this.writeBatch(run, leaseId, batch, timings),
      () => controller.abort(),
    );
    const result = await runAgent({
      provider: writer.provider(timings.provider(provider)),
      model: session.model,
      thinking: session.thinking,
      // The session's own limit within the instance's; counted over the whole run (all segments).
      maxSteps: Math.min(session.maxSteps ?? this.config.env.AGENT_MAX_STEPS, this.config.env.AGENT_MAX_STEPS_LIMIT),
      workspace: timings.workspace(sandbox.workspace),
      // The IDE's shared terminals, labelled as this session's agent's (run_in_terminal, kill_terminal).
      terminals: new SandboxTerminalHost(async () => (await this.sandboxes.driver()).connect(sandbox.record), {
        sessionId: session.id,
        userId: run.userId,
        maxTerminals: this.config.env.TERMINALS_PER_WORKSPACE_MAX,
      }),
      conversation,
      outputs: new SessionOutputStore(this.toolOutputs, session.id, run.id, this.config.env.TOOL_OUTPUT_MAX_BYTES),
      signal: controller.signal,
      authorize: async (request) => {
        // The workspace as it was before the run's first call that may change it (checkpoint).
        if (request.category !== 'read') await checkpoint();
        return this.authorize(session, decisions, request.call.id, request.category);
      },
      fileChanges: this.changeRecorder(run),
      onEvent: async (event) => this.record(run, writer, await this.withRunTotals(run, stored, event, writer), timings),
    });
    await writer.flush();
    await timings.time('conclude', () => this.conclude(run, leaseId, result, sandbox.workspace));
  }

  /** Stores each call's file changes (before/after) for review; the engine logs `file.changed`. */
  private changeRecorder(run: RunRecord): FileChangeRecorder {
    return {
      maxBytes: this.config.env.FILE_CHANGE_MAX_BYTES,
      record: async (toolCallId, captures) => {
        const rows = await this.changes.createMany(
          { sessionId: run.sessionId, runId: run.id, toolCallId },
          captures.map((c) => ({ ...c, ...lineCounts(c.before, c.after) })),
        );
        return rows.map(toChangeSummary);
      },
    };
  }

  /**
   * Takes the run's checkpoint once (sandboxd checkpoint.create), before its first call that may
   * change files; a run resumed in a new segment keeps the one it has. A failure costs only the
   * fork's file restore for this run: logged, and the run goes on.
   */
  private checkpointOnce(run: RunRecord, record: SandboxRecord): () => Promise<void> {
    let done: Promise<void> | null = null;
    return () =>
      (done ??= (async () => {
        if (await this.changes.runCheckpoint(run.id)) return;
        try {
          const client = await (await this.sandboxes.driver()).connect(record);
          const cp = await client.call('checkpoint.create', { maxFileBytes: this.config.env.CHECKPOINT_FILE_MAX_BYTES });
          await this.changes.setRunCheckpoint(run.id, cp.id);
        } catch (err) {
          this.logger.warn({ runId: run.id, err }, 'could not take the run\'s workspace checkpoint; a fork will not restore files for this run');
        }
      })());
  }

  private async conclude(run: RunRecord, leaseId: string, result: AgentRunResult, workspace: Workspace): Promise<void> {
    if (result.status === 'paused' && result.pendingCall) {
      const call = result.pendingCall;
      let input: unknown = call.arguments;
      try {
        input = JSON.parse(call.arguments);
      } catch {
        /* keep the raw text */
      }
      const request = await this.permissions.upsertPending({ sessionId: run.sessionId, runId: run.id, toolCallId: call.id, toolName: call.name, input });
      if (request.status === 'pending') {
        const preview = await permissionPreview(call.name, input, workspace, this.config.env.FILE_CHANGE_MAX_BYTES);
        const appended = await this.events.append(
          run.sessionId,
          [{ type: 'permission.requested', data: { permissionId: request.id, toolCallId: call.id, toolName: call.name, input, ...(preview ? { preview } : {}) } }],
          { runId: run.id, leaseId },
        );
        await this.bus.publishEvents(appended);
      }
      await this.runs.markWaiting(run.id, leaseId);
      // A decision that landed before the run was parked could not requeue it; do it now.
      const latest = await this.permissions.findById(request.id);
      if (latest && latest.status !== 'pending') await this.runs.requeue(run.id);
      return;
    }
    const status = result.status === 'done' ? 'completed' : result.status === 'cancelled' ? 'cancelled' : 'failed';
    await this.finish(run, leaseId, status, result.error ? { code: apiErrorCode(result.error.code), message: result.error.message } : null);
  }

  /**
   * A call with a tool.start but no tool.end in the log was running when its worker died. What it
   * did is unknown and a command may not be safe to repeat, so it is not run again: it gets the
   * interrupted result as a persisted tool.end, so the log and every rebuild agree, and the model
   * decides what to do next.
   */
  private async closeInterruptedCalls(run: RunRecord, leaseId: string, log: EventEnvelope[]): Promise<EventEnvelope[]> {
    const ended = new Set(log.filter((e) => e.type === 'tool.end').map((e) => (e.data as { toolCallId: string }).toolCallId));
    const cut = log
      .filter((e) => e.runId === run.id && e.type === 'tool.start')
      .map((e) => e.data as { toolCallId: string; name: string })
      .filter((d) => !ended.has(d.toolCallId));
    if (!cut.length) return [];
    this.logger.warn({ runId: run.id, calls: cut.map((d) => d.toolCallId) }, 'tool calls cut off by a lost worker get the interrupted result');
    const appended = await this.events.append(
      run.sessionId,
      cut.map((d) => ({ type: 'tool.end', data: { toolCallId: d.toolCallId, name: d.name, result: INTERRUPTED_RESULT, isError: true, durationMs: 0 } })),
      { runId: run.id, leaseId },
    );
    await this.bus.publishEvents(appended);
    return appended;
  }

  /** Ends the run; the engine already appended its terminal event unless `finalEvent` is given. */
  private async finish(
    run: RunRecord,
    leaseId: string,
    status: 'completed' | 'failed' | 'cancelled',
    error: { code: ErrorCode; message: string } | null,
    finalEvent?: { type: string; data: unknown },
  ): Promise<void> {
    const appended = await this.runs.finish(run.id, leaseId, { status, error }, finalEvent ? { sessionId: run.sessionId, ...finalEvent } : undefined);
    await this.bus.publishEvents(appended);
  }

  /**
   * The engine's terminal event reports the usage of its own segment; a run that paused or lost its
   * worker had earlier segments. The event reports the whole run: the stored totals (exact, see
   * EventRepository.append) and the reasoning tokens of the earlier segments' usage events.
   */
  private async withRunTotals(run: RunRecord, stored: EventEnvelope[], event: AgentEvent, writer: RunEventWriter): Promise<AgentEvent> {
    if (event.type !== 'run.done' && event.type !== 'run.failed' && event.type !== 'run.cancelled') return event;
    if (!stored.some((e) => e.runId === run.id && e.type === 'usage')) return event;
    await writer.flush(); // this segment's last usage may still be queued
    const totals = (await this.runs.findById(run.id))?.usage;
    if (!totals) return event;
    return { ...event, data: { ...event.data, usage: totals } } as AgentEvent;
  }

  private async record(run: RunRecord, writer: RunEventWriter, engineEvent: AgentEvent, timings: RunTimings): Promise<void> {
    const event = withApiErrorCode(engineEvent);
    if (event.type !== 'text.delta' && event.type !== 'thinking.delta') return writer.push(event);
    // Deltas arrive while the model streams (after the request's flush: nothing is queued), so
    // the seq they follow is the last one written. This span overlaps `model`.
    const afterSeq = this.sessionSeqs.get(run.sessionId) ?? (await this.events.lastSeq(run.sessionId));
    const delta = { sessionId: run.sessionId, runId: run.id, afterSeq, ts: new Date().toISOString(), type: event.type, data: event.data };
    await timings.time('publish.delta', () => this.bus.publishEphemeral(delta));
  }

  /**
   * One batch of the engine's events in one statement: appended (fenced by the lease), with the
   * usage of its model requests added to the totals and the derived state (todos, summary) merged;
   * the writer publishes it after (in order).
   */
  private async writeBatch(run: RunRecord, leaseId: string, batch: AgentEvent[], timings: RunTimings): Promise<() => Promise<void>> {
    let usage: UsageTotals | undefined;
    const state: Record<string, unknown> = {};
    for (const event of batch) {
      if (event.type === 'usage') usage = addUsage(usage, requestUsage(event.data));
      if (event.type === 'todos.updated') state.todos = event.data.todos;
      if (event.type === 'summary.written') state.summary = event.data.summary;
    }
    const appended = await timings.time('append', () =>
      this.events.append(run.sessionId, batch, { runId: run.id, leaseId, usage, state: Object.keys(state).length ? state : undefined }),
    );
    this.noteSeq(run.sessionId, appended.at(-1)?.seq ?? 0);
    return () => timings.time('publish', () => this.bus.publishEvents(appended));
  }

  private noteSeq(sessionId: string, seq: number): void {
    const known = this.sessionSeqs.get(sessionId);
    if (known !== undefined && seq > known) this.sessionSeqs.set(sessionId, seq);
  }

  private authorize(session: AgentSessionRecord, decisions: Map<string, Decision>, callId: string, category: string): ToolAuthorization {
    return authorizeCall(session.permissionMode, category, decisions.get(callId));
  }

  private decisionsFor(log: EventEnvelope[], runId: string): Map<string, Decision> {
    const out = new Map<string, Decision>();
    for (const e of log) {
      if (e.runId !== runId || e.type !== 'permission.resolved') continue;
      const d = e.data as { toolCallId: string } & Decision;
      out.set(d.toolCallId, { behavior: d.behavior, updatedInput: d.updatedInput ?? null, message: d.message ?? null });
    }
    return out;
  }

  private async provider(session: AgentSessionRecord): Promise<ModelProvider> {
    const apiKey = await this.secrets.reveal(session.teamId, 'deepseek').catch((err: Error) => {
      throw new RunFailure('PROVIDER_KEY_UNREADABLE', err.message);
    });
    if (!apiKey) {
      throw new RunFailure('PROVIDER_KEY_MISSING', 'No DeepSeek API key is set for this team; a team admin can add one in the team settings.');
    }
    return new DeepSeekProvider({ apiKey, baseUrl: this.config.env.DEEPSEEK_BASE_URL });
  }
}

function addUsage(a: UsageTotals | undefined, b: UsageTotals): UsageTotals {
  if (!a) return b;
  return {
    requests: a.requests + b.requests,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cacheHitTokens: a.cacheHitTokens + b.cacheHitTokens,
    cacheMissTokens: a.cacheMissTokens + b.cacheMissTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

function requestUsage(data: Extract<AgentEvent, { type: 'usage' }>['data']): UsageTotals {
  const r = data.request;
  return {
    requests: 1,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    cacheHitTokens: r.cacheHitTokens,
    cacheMissTokens: r.cacheMissTokens,
    reasoningTokens: r.reasoningTokens ?? 0,
    costUsd: data.costUsd,
  };
}

/** A failure or error event as the API tells it: the engine's code translated (engine-error-codes.ts). */
function withApiErrorCode(event: AgentEvent): AgentEvent {
  if (event.type !== 'run.failed' && event.type !== 'error') return event;
  return { ...event, data: { ...event.data, code: apiErrorCode(event.data.code) } } as AgentEvent;
}
