import { Injectable, Logger } from '@nestjs/common';
import { listTree, rebuildConversation, runAgent, stepModeState, type AgentRunOptions, type AgentRunResult, type ToolAuthorization } from '@h/agent';
import { type AgentEvent, type ErrorCode, failureSettingsSection, type SettingsSection } from '@h/contracts';
import { AppConfig } from '@h/config';
import {
  AgentSessionRecord,
  AgentSessionRepository,
  EventBusRepository,
  EventEnvelope,
  EventRepository,
  LeaseLostError,
  QuotaExceededError,
  RunRecord,
  RunRepository,
  SubAgentRunRepository,
  ToolOutputRepository,
  WorkspaceRepository,
  ZERO_USAGE,
} from '@h/db';
import { JobName, JobPayload, OnJob } from '@h/jobs';
import { McpConnector } from '@h/mcp';
import { registerConfiguredModels } from '@h/llm';
import { ModelProviderResolver, ProviderUnavailableError, type ResolvedModelProvider } from '@h/providers';
import { SandboxBrowserHost, SandboxGraphHost, isSandboxHostError, SandboxTerminalHost } from '@h/sandbox';
import { SessionQueryService } from '@h/session-search';
import { delegationRequests, type DelegationRequest } from '@h/tools';
import { SandboxManager } from '@h/workspaces';
import { ClaudeCodeRunner } from './claude-code-run';
import { apiErrorCode, asApiFailure } from './engine-error-codes';
import { DelegationService } from './delegation.service';
import { authorizeCall, type PermissionDecision } from './permission-policy';
import { RunDispatcher } from './run-dispatcher.service';
import { runDiagnostics } from './run-diagnostics';
import type { RunEventWriter } from './run-event-writer';
import { RunEventSink } from './run-event-sink';
import { RunSegmentHooks } from './run-segment-hooks';
import { RunConclusion } from './run-conclusion.service';
import { RunMemory } from './run-memory';
import { McpNotices, noMcp, openRunMcp, runTools } from './run-mcp';
import { describeScreenshot } from './browser-vision';
import { runShape, workspaceContextOptions } from './run-shape';
import { instrumentedProvider } from './run-telemetry';
import { RunTimings } from './run-timings';
import { StepModeRun } from './step-mode-run';
import { RunBudgetGuard } from './budget/run-budget-guard';
import { TeamBudgetService } from './budget/team-budget.service';
import { SessionOutputStore } from './session-output.store';

const TERMINAL_STATUS = { 'run.done': 'completed', 'run.failed': 'failed', 'run.cancelled': 'cancelled' } as const;

/** What a run's start reads of its session, started before or beside the claim (AgentRunJob.loadSession). */
interface SessionLoads {
  sessionId: string;
  session: Promise<AgentSessionRecord | null>;
  provider: Promise<ResolvedModelProvider | null>;
  workspace: Promise<Awaited<ReturnType<WorkspaceRepository['findBySession']>>>;
}

type Decision = PermissionDecision;

class RunFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The Settings section that mends it (a provider key), for the console's link. */
    readonly settings?: SettingsSection,
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
  /** Each running run's budget check, by run id (run-budget-guard.ts). */
  private readonly guards = new Map<string, RunBudgetGuard>();
  private busSubscriptions: Promise<unknown> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly events: EventRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly bus: EventBusRepository,
    private readonly dispatcher: RunDispatcher,
    private readonly sandboxes: SandboxManager,
    private readonly providers: ModelProviderResolver,
    private readonly toolOutputs: ToolOutputRepository,
    private readonly claudeCode: ClaudeCodeRunner,
    private readonly subAgents: SubAgentRunRepository,
    private readonly delegation: DelegationService,
    private readonly mcp: McpConnector,
    private readonly memory: RunMemory,
    private readonly sessionQueries: SessionQueryService,
    private readonly budget: TeamBudgetService,
    private readonly sink: RunEventSink,
    private readonly hooks: RunSegmentHooks,
    private readonly conclusion: RunConclusion,
  ) {
    registerConfiguredModels(config.env.MODEL_CATALOG);
  }

  @OnJob(JobName.AgentRun)
  async handle({ runId, sessionId }: JobPayload<JobName.AgentRun>): Promise<void> {
    this.busSubscriptions ??= Promise.all([
      this.bus.onCancel((id) => this.controllers.get(id)?.abort()),
      this.bus.onMessage((id, message) => {
        if (message.kind !== 'event') return;
        this.sink.noteSeq(id, message.event.seq);
        // Only sessions running here (their log read comes after): the set stays bounded, and the
        // bus does not parse other sessions' messages for this process.
        if (message.event.type === 'file.change.resolved') this.hooks.noteResolved(id);
      }, (id) => this.sink.runsHere(id)),
    ]);
    await this.busSubscriptions;
    const timings = new RunTimings();
    // The session, its workspace and its provider do not depend on holding the run's lease: when the
    // job names the session they are read beside the claim (the provider needs the session, and that
    // chain was the start's longest). The log is read only after the claim (execute).
    const early = sessionId ? this.loadSession(sessionId, timings) : null;
    const claim = await timings.time('claim', () => this.runs.claim(runId));
    if (!claim) return; // finished, cancelled or parked meanwhile
    const { run, leaseId, checkpointId } = claim;
    const loads = early?.sessionId === run.sessionId ? early : this.loadSession(run.sessionId, timings);
    const controller = new AbortController();
    this.controllers.set(runId, controller);
    this.guards.set(runId, new RunBudgetGuard(this.budget, run.teamId, controller));
    try {
      await this.execute(run, leaseId, controller, timings, loads, checkpointId);
    } catch (err) {
      if (err instanceof LeaseLostError) {
        this.logger.warn({ runId }, 'another worker took over this run; stopping here');
        return;
      }
      const failure = err instanceof RunFailure ? err : new RunFailure('INTERNAL', 'The run stopped on an internal error; it was logged.');
      if (!(err instanceof RunFailure)) this.logger.error({ runId, err }, 'run crashed');
      await this.conclusion.finish(run, leaseId, 'failed', { code: failure.code, message: failure.message }, {
        type: 'run.failed',
        data: { code: failure.code, message: failure.message, usage: ZERO_USAGE, ...(failure.settings ? { settings: failure.settings } : {}) },
      });
    } finally {
      this.controllers.delete(runId);
      this.guards.delete(runId);
      this.sink.forget(run.sessionId);
      this.hooks.forget(run.sessionId);
      await timings.time('dispatch', () => this.dispatcher.dispatch(run.teamId));
      this.logger.debug({ runId, timings: timings.summary(), timeline: timings.timeline() }, 'run segment timings');
    }
  }

  /**
   * The session, its workspace row (by the session id) and then its provider key, read at once;
   * each promise is awaited by execute, or moot when the claim finds nothing to run.
   */
  private loadSession(sessionId: string, timings: RunTimings): SessionLoads {
    const session = timings.time('load.session', () => this.sessions.findById(sessionId));
    // A claude-code session's model is reached through its gateway (claude-code-run.ts), not here.
    const provider = session.then((s) => (s && s.engine !== 'claude-code' ? timings.time('load.provider', () => this.provider(s)) : null));
    const workspace = timings.time('load.workspace', () => this.workspaces.findBySession(sessionId));
    for (const p of [session, provider, workspace]) p.catch(() => undefined);
    return { sessionId, session, provider, workspace };
  }

  private async execute(
    run: RunRecord,
    leaseId: string,
    controller: AbortController,
    timings: RunTimings,
    loads: SessionLoads,
    /** The checkpoint an earlier segment of this run took, as the claim read it. */
    checkpointId: string | null,
  ): Promise<void> {
    // The log and the sub-agent runs are read once this worker holds the lease (a worker whose run
    // this claim took over cannot append any more), beside the session loads already on their way.
    const storedPending = timings.time('load.events', () => this.events.listAll(run.sessionId));
    // The session's sub-agent runs: their events are not the parent's conversation (run-shape.ts).
    const childIdsPending = timings.time('load.children', () => this.subAgents.childRunIds(run.sessionId));
    const { session: sessionPending, provider: providerPending, workspace: workspacePending } = loads;
    for (const p of [storedPending, childIdsPending]) p.catch(() => undefined); // awaited below, or moot
    const session = await sessionPending;
    if (!session) throw new RunFailure('SESSION_GONE', 'The session was deleted.');
    const stored = await storedPending;
    // The engine logged how the run ended and the worker died before marking it: record that end
    // instead of running the agent (and asking the model) a second time.
    const ended = stored.find((e) => e.runId === run.id && Object.hasOwn(TERMINAL_STATUS, e.type));
    if (ended) {
      const data = ended.data as { code?: string; message?: string };
      const error = ended.type === 'run.failed' ? { code: apiErrorCode(data.code ?? 'INTERNAL'), message: data.message ?? '' } : null;
      await this.conclusion.finish(run, leaseId, TERMINAL_STATUS[ended.type as keyof typeof TERMINAL_STATUS], error);
      return;
    }
    // A step-by-step run stops between steps, so its own segment decides what a stop means.
    const stepMode = !run.parentRunId && stepModeState(stored, run.id).stepMode;
    if (run.cancelRequestedAt && !stepMode) {
      await this.conclusion.finish(run, leaseId, 'cancelled', null, { type: 'run.cancelled', data: { usage: ZERO_USAGE } });
      return;
    }
    const workspaceRow = await workspacePending;
    if (!workspaceRow) throw new RunFailure('WORKSPACE_GONE', 'The workspace was deleted.');
    if (stepMode && session.engine !== 'h') throw new RunFailure('STEP_ENGINE_UNSUPPORTED', 'Step-by-step mode runs on H\'s own agent only; send the message without it.');
    if (session.engine === 'claude-code') return this.executeClaudeCode(run, leaseId, controller, timings, session, workspaceRow, stored);
    const resolved = await providerPending;
    if (!resolved) throw new RunFailure('SESSION_GONE', 'The session was deleted.');
    const { provider, modelInfo } = resolved;

    const interrupted = await this.conclusion.closeInterruptedCalls(run, leaseId, stored);
    const tRebuild = performance.now();
    this.sink.track(run.sessionId, [...stored, ...interrupted].at(-1)?.seq ?? 0);
    const shape = runShape(run, [...stored, ...interrupted], await childIdsPending);
    const log = shape.log;
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
    if (!run.parentRunId && storedTodos?.length && conversation.todos.length === 0) await this.sessions.mergeState(session.id, { todos: [] });

    let sandbox;
    try {
      sandbox = await timings.time('sandbox.open', () => this.sandboxes.open(workspaceRow));
    } catch (err) {
      if (err instanceof QuotaExceededError) throw new RunFailure('QUOTA_EXCEEDED', err.message);
      // Several Docker hosts: say which one is down, or why none can take the workspace.
      if (isSandboxHostError(err)) throw new RunFailure(err.code, err.message);
      this.logger.error({ runId: run.id, err }, 'sandbox unavailable');
      throw new RunFailure('SANDBOX_UNAVAILABLE', 'The workspace sandbox could not be started. Retry; if it persists, an admin can find the cause in the worker log.');
    }

    const checkpoint = this.hooks.checkpointOnce(run, sandbox.record, checkpointId);
    // Taken now, while the first model request is on its way, rather than when the first call that
    // may change something asks for it: there it stood in line, 25–45 ms a run (bench/runs). It is
    // the workspace as it was when the run started; a run that changes nothing wastes one.
    checkpoint().catch(() => undefined); // a failed read fails the call that awaits it, as before
    // Events are written in batches, one statement each, persisted (durably) before every call
    // that changes something and at the end (see RunEventWriter); a failed write stops the engine.
    const writer = this.sink.writer(run, leaseId, session.model, timings, () => controller.abort());
    // The workspace's external MCP servers for this segment (run-mcp.ts); none is fatal. A
    // sub-agent is offered exactly its profile's allowlist, so it connects to none.
    // The MCP servers, the memory selection and the tree listing of the opening context are read
    // at once (each a round trip or more, on the way to the first model request).
    const contextOptions = workspaceContextOptions(this.config.env, !!run.parentRunId);
    const timedWorkspace = timings.workspace(sandbox.workspace);
    if (contextOptions && contextOptions.tree !== false && !stored.some((e) => e.runId === run.id && e.type !== 'message.user')) {
      contextOptions.listing = listTree(timedWorkspace).catch(() => null);
    }
    const [mcp, memory] = await Promise.all([
      run.parentRunId
        ? noMcp()
        : timings.time('mcp.open', () => openRunMcp(this.mcp, this.sandboxes, workspaceRow, sandbox.record, controller.signal)),
      timings.time('memory.select', () => this.memory.opening(run, workspaceRow.id, log, conversation, provider)),
    ]);
    const notices = new McpNotices(run.id, stored, mcp.failures);
    // Delegate calls that wait for their sub-agents, by call id: conclude() starts them.
    const delegations = new Map<string, DelegationRequest[]>();
    // Paths this segment's write tools changed: read_problems checks them first.
    const written = new Set<string>();
    const visionModel = this.config.env.BROWSER_VISION_MODEL;
    const options: AgentRunOptions = {
      provider: writer.provider(timings.provider(instrumentedProvider(provider))),
      // A sub-agent has exactly its profile's tools; other runs add the workspace's MCP servers'.
      tools: runTools(shape.tools, mcp),
      profilePrompt: shape.profilePrompt,
      delegation: shape.delegates ? { outcomes: (callId) => this.delegation.outcomes(run, callId) } : undefined,
      // session_search and co. (main agent only): scoped to this session's workspace, leaving this session or step out.
      caller: { workspaceId: session.workspaceId, sessionId: session.id, runId: run.id },
      sessionQueries: shape.delegates ? this.sessionQueries : undefined,
      model: session.model,
      modelInfo,
      thinking: session.thinking,
      // The session's own limit within the instance's; counted over the whole run (all segments).
      maxSteps: Math.min(session.maxSteps ?? this.config.env.AGENT_MAX_STEPS, this.config.env.AGENT_MAX_STEPS_LIMIT),
      workspace: timedWorkspace,
      workspaceContext: contextOptions,
      // Remembered entries for this run, selected once, told after the cached prefix (run-memory.ts).
      memory,
      memoryStore: this.memory.store(run, workspaceRow.id),
      // The IDE's shared terminals, labelled as this session's agent's (run_in_terminal, kill_terminal).
      terminals: new SandboxTerminalHost(async () => (await this.sandboxes.driver()).connect(sandbox.record), {
        sessionId: session.id,
        userId: run.userId,
        maxTerminals: this.config.env.TERMINALS_PER_WORKSPACE_MAX,
      }),
      // The sandbox's one browser. The browser sub-agent is given screenshots as images (the seed
      // runs it on a vision model); other agents (frontend-specialist) get a description by the
      // configured vision model instead, or are told none is configured.
      browser: new SandboxBrowserHost(async () => (await this.sandboxes.driver()).connect(sandbox.record), {
        vision: run.profile === 'browser',
        describe: visionModel ? (png, header, signal) => describeScreenshot(provider, visionModel, png, header, signal) : undefined,
      }),
      // The sandbox's knowledge graph, built and kept current by sandboxd (read_graph).
      graph: new SandboxGraphHost(async () => (await this.sandboxes.driver()).connect(sandbox.record)),
      conversation,
      outputs: new SessionOutputStore(this.toolOutputs, session.id, run.id, this.config.env.TOOL_OUTPUT_MAX_BYTES),
      signal: controller.signal,
      authorize: async (request) => {
        // A delegate call runs once its sub-agents ended; before that the run parks for them.
        const wanted = shape.delegates ? delegationRequests(request.call.name, request.call.arguments) : null;
        if (wanted && !('error' in wanted) && (await this.delegation.state(run.id, request.call.id)) !== 'ended') {
          delegations.set(request.call.id, wanted);
          return { behavior: 'wait' };
        }
        // The workspace as it was before the run's first call that may change it (checkpoint).
        if (request.category !== 'read') await timings.time('checkpoint', checkpoint);
        return this.authorize(session, decisions, request.call.id, request.category, request.approval);
      },
      fileChanges: this.hooks.changeRecorder(run, timings, written),
      // read_problems asks the workspace's language servers first (run-diagnostics.ts).
      diagnostics: runDiagnostics(async () => (await this.sandboxes.driver()).connect(sandbox.record), written),
      reviewNotes: this.hooks.reviewNotes(session.id, [...stored, ...interrupted].at(-1)?.seq ?? 0),
      onEvent: async (event) => {
        await this.recordEvent(run, session, writer, await this.withRunTotals(run, stored, event, writer), timings);
        for (const notice of notices.after(event)) await this.recordEvent(run, session, writer, notice, timings);
      },
    };
    let result: AgentRunResult;
    try {
      if (stepMode) return await this.executeSteps(run, leaseId, [...stored, ...interrupted], options, writer, controller);
      result = await runAgent(options);
    } finally {
      await mcp.close();
    }
    await writer.flush();
    await timings.time('conclude', () => this.conclusion.conclude(run, leaseId, result, sandbox.workspace, delegations, workspaceRow.id));
    if (result.status !== 'paused') await this.memory.afterRun(run, workspaceRow.id);
  }

  /** A step-by-step run's segment (step-mode-run.ts): plan, or record a step's end and start the next, or wrap up. */
  private async executeSteps(run: RunRecord, leaseId: string, log: EventEnvelope[], options: AgentRunOptions, writer: RunEventWriter, controller: AbortController): Promise<void> {
    const outcome = await new StepModeRun(this.delegation, {
      run,
      leaseId,
      log,
      agent: options,
      record: options.onEvent as (event: AgentEvent) => Promise<void>,
      flush: () => writer.flush(),
      stopRequested: async () => controller.signal.aborted || !!(await this.runs.findById(run.id))?.cancelRequestedAt,
    }).execute();
    await writer.flush();
    if (outcome.kind === 'ended') await this.conclusion.finish(run, leaseId, outcome.status, outcome.error);
  }

  /** A claude-code session's turn: the CLI in the sandbox, its events through the same writer (claude-code-run.ts). */
  private async executeClaudeCode(
    run: RunRecord,
    leaseId: string,
    controller: AbortController,
    timings: RunTimings,
    session: AgentSessionRecord,
    workspace: { id: string; teamId: string; networkEnabled: boolean },
    stored: EventEnvelope[],
  ): Promise<void> {
    this.sink.track(run.sessionId, stored.at(-1)?.seq ?? 0);
    const writer = this.sink.writer(run, leaseId, session.model, timings, () => controller.abort());
    const result = await this.claudeCode.execute({
      run,
      leaseId,
      session,
      workspace,
      stored,
      signal: controller.signal,
      record: (event) => this.recordEvent(run, session, writer, event, timings),
      flush: () => writer.flush(),
    });
    await writer.flush();
    await this.conclusion.finish(run, leaseId, result.status, result.error);
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

  /** An engine event through the sink; a paid model request may stop the run if the budget is spent. */
  private recordEvent(run: RunRecord, session: AgentSessionRecord, writer: RunEventWriter, engineEvent: AgentEvent, timings: RunTimings): Promise<void> {
    // A model request was paid for: stop here, before its calls run, if the budget is spent.
    return this.sink.record(run, writer, asApiFailure(engineEvent, session), timings, () => this.guards.get(run.id)?.afterUsage(() => writer.flush()) ?? Promise.resolve());
  }

  private authorize(session: AgentSessionRecord, decisions: Map<string, Decision>, callId: string, category: string, approval?: 'ask' | 'allow'): ToolAuthorization {
    return authorizeCall(session.permissionMode, category, decisions.get(callId), approval);
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

  /** DeepSeek or the team's own provider of the session (libs/providers ModelProviderResolver). */
  private async provider(session: AgentSessionRecord): Promise<ResolvedModelProvider> {
    try {
      return await this.providers.resolve(session);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) throw new RunFailure(err.code, err.message, failureSettingsSection(err.code, session));
      throw err;
    }
  }
}
