import { RunStop } from '@h/agent';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import {
  claudeLaunch,
  ClaudeUsageMeter,
  driveClaudeCode,
  forwarderPort,
  ModelGateway,
  toolCategory,
  type ClaudeCodeOutcome,
  type ClaudeDecision,
  type ClaudeToolRequest,
  type GatewayLease,
} from '@h/claude-code';
import { AppConfig } from '@h/config';
import { ACTIVE_RUN_STATUSES, settingsPlace, type AgentEvent, type ErrorCode, type Workspace } from '@h/contracts';
import {
  AgentSessionRecord,
  AgentSessionRepository,
  EventBusRepository,
  EventEnvelope,
  PermissionRepository,
  QuotaExceededError,
  RunRecord,
  RunRepository,
} from '@h/db';
import { ProviderSecretReader } from '@h/providers';
import { isSandboxHostError, MODEL_GATEWAY_SANDBOX_DIR } from '@h/sandbox';
import { SandboxManager } from '@h/workspaces';
import { apiErrorCode } from './engine-error-codes';
import { permissionPreview } from './permission-preview';
import { authorizeCall } from './permission-policy';

export interface ClaudeCodeSegment {
  run: RunRecord;
  leaseId: string;
  session: AgentSessionRecord;
  workspace: { id: string; teamId: string; networkEnabled: boolean };
  /** The session's log as the job read it. */
  stored: EventEnvelope[];
  signal: AbortSignal;
  /** Appends (batched, under the lease) and publishes one event: the job's writer. */
  record(event: AgentEvent): Promise<void>;
  /** Resolves once everything recorded so far is persisted and published. */
  flush(): Promise<void>;
}

export interface ClaudeCodeResult {
  status: 'completed' | 'failed' | 'cancelled';
  error: { code: ErrorCode; message: string } | null;
}

const RESUME_LOST_NOTE =
  '(From H: the workspace sandbox restarted since the last message, so your earlier conversation in this session is not available to you; the files are as they were left.)';

// How Claude Code's tools look to H's permission preview (the card's diff or command line).
const PREVIEW_AS: Record<string, (i: Record<string, unknown>) => [string, Record<string, unknown>]> = {
  Bash: (i) => ['run_command', { command: i.command }],
  Write: (i) => ['write_file', { path: i.file_path, content: i.content }],
  Edit: (i) => ['edit_file', { path: i.file_path, old_string: i.old_string, new_string: i.new_string, replace_all: i.replace_all }],
};

/**
 * One turn of a `claude-code` session (the AgentRunJob hands it over): the team's Anthropic key
 * stays in this process, behind a gateway socket opened for this run only; Claude Code runs in the
 * workspace's sandbox with the run's secret; its events go into the session's log through the
 * job's writer, its permission requests through H's own approval pipeline (a `permission.requested`
 * event and a PermissionRequest row, decided over REST, Socket.IO or h2c like any other).
 *
 * Unlike H's engine, the turn does not park while it waits: Claude Code holds its conversation in
 * its process, so the job stays with it (the run stays `running`) until the decision arrives. A
 * worker that dies mid-turn cannot resume it: the next claim fails the run (ENGINE_INTERRUPTED)
 * rather than running its commands twice.
 */
@Injectable()
export class ClaudeCodeRunner implements OnModuleDestroy {
  private readonly logger = new Logger(ClaudeCodeRunner.name);
  private readonly gateway: ModelGateway | null;
  private readonly decided = new Map<string, () => void>();
  private unsubscribe: Promise<() => void> | null = null;
  /** Turns in progress: a shutting-down worker stops them (a turn waiting for a person would hold its job forever). */
  private readonly active = new Set<AbortController>();

  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly permissions: PermissionRepository,
    private readonly bus: EventBusRepository,
    private readonly sandboxes: SandboxManager,
    private readonly secrets: ProviderSecretReader,
  ) {
    const socketDir = config.modelGatewaySocketDir;
    this.gateway = socketDir === null ? null : new ModelGateway({
      socketDir,
      upstream: config.env.ANTHROPIC_BASE_URL,
      onError: (err, runId) => this.logger.warn({ runId, err }, 'model gateway request failed'),
    });
  }

  // Before BullMQ closes its workers (onApplicationShutdown), which waits for active jobs.
  async onModuleDestroy(): Promise<void> {
    for (const a of this.active) a.abort();
    if (this.unsubscribe) (await this.unsubscribe)();
  }

  async execute(seg: ClaudeCodeSegment): Promise<ClaudeCodeResult> {
    const meter = new ClaudeUsageMeter();
    const fail = async (code: ErrorCode, message: string): Promise<ClaudeCodeResult> => {
      await seg.record({ type: 'run.failed', data: { code, message, usage: meter.snapshot() } });
      return { status: 'failed', error: { code, message } };
    };
    if (seg.stored.some((e) => e.runId === seg.run.id && e.type === 'run.started')) {
      return fail('ENGINE_INTERRUPTED', 'The worker running this Claude Code turn stopped mid-turn. It is not repeated (its commands may have run); send the message again.');
    }
    const prompt = userMessageOf(seg.stored, seg.run.id);
    if (prompt === null) return fail('INTERNAL', 'The run has no user message to send to Claude Code.');
    if (!this.gateway) return fail('ENGINE_UNAVAILABLE', 'The claude-code engine is off on this instance (MODEL_GATEWAY_SOCKET_DIR=off); an operator can turn it on (see libs/claude-code/README.md).');
    const modelGateway = this.gateway;
    let apiKey: string | null;
    try {
      apiKey = await this.secrets.reveal(seg.session.teamId, 'anthropic');
    } catch (err) {
      return fail('PROVIDER_KEY_UNREADABLE', (err as Error).message);
    }
    if (!apiKey) return fail('PROVIDER_KEY_MISSING', `No Anthropic API key is set for this team; a team admin can add one under ${settingsPlace('anthropicKey')}.`);

    let sandbox: Awaited<ReturnType<SandboxManager['open']>>;
    try {
      sandbox = await this.sandboxes.open(seg.workspace);
    } catch (err) {
      if (err instanceof QuotaExceededError) return fail('QUOTA_EXCEEDED', err.message);
      if (isSandboxHostError(err)) return fail(err.code, err.message);
      this.logger.error({ runId: seg.run.id, err }, 'sandbox unavailable');
      return fail('SANDBOX_UNAVAILABLE', 'The workspace sandbox could not be started. Retry; if it persists, an admin can find the cause in the worker log.');
    }
    const driver = await this.sandboxes.driver();
    // Kubernetes pods can spawn, but the model gateway's socket dir is a host directory they do not mount.
    if (!driver.spawn || driver.kind === 'kubernetes') return fail('ENGINE_UNAVAILABLE', 'The claude-code engine needs the Docker sandbox driver (SANDBOX_DRIVER=docker).');
    const spawn = driver.spawn.bind(driver);

    this.unsubscribe ??= this.bus.onMessage((_sessionId, m) => {
      if (m.kind === 'event' && m.event.type === 'permission.resolved') this.decided.get((m.event.data as { permissionId: string }).permissionId)?.();
    }, () => this.decided.size > 0); // only while a call waits for a decision
    await this.unsubscribe;

    // The session's own step limit, within the instance's, counted as model requests through the gateway.
    const maxRequests = Math.min(seg.session.maxSteps ?? this.config.env.AGENT_MAX_STEPS, this.config.env.AGENT_MAX_STEPS_LIMIT);
    let admitted = 0;
    let lease: GatewayLease | null = null;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.config.env.CLAUDE_CODE_RUN_MINUTES * 60_000);
    const shutdown = new AbortController();
    this.active.add(shutdown);
    const signal = AbortSignal.any([seg.signal, timeout.signal, shutdown.signal]);
    try {
      try {
        lease = await modelGateway.open({
          runId: seg.run.id,
          apiKey,
          admit: async () => {
            if (signal.aborted) return 'this run was stopped.';
            const run = await this.runs.findById(seg.run.id);
            if (!run || !ACTIVE_RUN_STATUSES.includes(run.status) || run.cancelRequestedAt) return 'this run is no longer active.';
            if (++admitted > maxRequests) return `this run has made its ${maxRequests} model requests (the session's step limit, AGENT_MAX_STEPS).`;
            return null;
          },
          onUsage: async (usage, model) => {
            const u = meter.add(model || seg.session.model, usage);
            await seg.record({ type: 'usage', data: { ...u, contextTokens: u.request.promptTokens, contextWindow: 200_000 } });
          },
        });
      } catch (err) {
        this.logger.error({ runId: seg.run.id, err }, 'could not open the model gateway for the run');
        return fail('ENGINE_UNAVAILABLE', `H's model gateway could not open this run's socket: ${(err as Error).message}`);
      }
      const gateway = lease;
      await seg.record({ type: 'run.started', data: { model: seg.session.model, thinking: false, systemChunkIds: [] } });
      const state = seg.session.state as { claudeSessionId?: string };
      const turn = async (resumeSessionId: string | null, text: string): Promise<ClaudeCodeOutcome | null> => {
        const launch = claudeLaunch({
          sandboxSocketPath: `${MODEL_GATEWAY_SANDBOX_DIR}/${gateway.socketName}`,
          port: forwarderPort(seg.run.id),
          secret: gateway.secret,
          model: seg.session.model,
          permissionMode: seg.session.permissionMode,
          resumeSessionId,
        });
        let proc;
        try {
          proc = await spawn(sandbox.record, { argv: launch.argv, env: launch.env, cwd: '/workspace' });
        } catch (err) {
          this.logger.error({ runId: seg.run.id, err }, 'could not start Claude Code in the sandbox');
          return null;
        }
        return driveClaudeCode({
          process: proc,
          prompt: text,
          signal,
          onEvent: (event) => seg.record(event),
          decide: (request, withdrawn) => this.decide(seg, sandbox.workspace, request, AbortSignal.any([signal, withdrawn])),
        });
      };
      let outcome = await turn(state.claudeSessionId ?? null, prompt);
      // The transcript of earlier turns lives in the sandbox's $HOME (tmpfs): after a sandbox
      // restart Claude Code cannot resume it and ends at once, before any model request. Go on
      // without it, and say so, rather than failing the turn.
      if (outcome?.status === 'failed' && state.claudeSessionId && admitted === 0) {
        this.logger.warn({ runId: seg.run.id }, 'Claude Code could not resume its conversation (sandbox restarted?); starting a new one');
        outcome = await turn(null, `${RESUME_LOST_NOTE}\n\n${prompt}`);
      }
      if (!outcome) return fail('ENGINE_UNAVAILABLE', 'Claude Code could not be started in the workspace sandbox (is it in the sandbox image? see infra/sandbox/agents.env).');
      if (outcome.sessionId && outcome.sessionId !== state.claudeSessionId) await this.sessions.mergeState(seg.session.id, { claudeSessionId: outcome.sessionId });
      await seg.flush();
      if (shutdown.signal.aborted && !seg.signal.aborted) return fail('ENGINE_INTERRUPTED', 'The worker shut down during this Claude Code turn; it is not repeated (its commands may have run): send the message again.');
      if (timeout.signal.aborted && !seg.signal.aborted) return fail('ENGINE_TIMEOUT', `The Claude Code turn took longer than ${this.config.env.CLAUDE_CODE_RUN_MINUTES} minutes (CLAUDE_CODE_RUN_MINUTES) and was stopped.`);
      if (outcome.status === 'cancelled') {
        // The host stopped it for a reason of its own (the team's budget is spent): a failure.
        const stop: unknown = seg.signal.reason;
        if (stop instanceof RunStop) return fail(apiErrorCode(stop.code), stop.message);
        await seg.record({ type: 'run.cancelled', data: { usage: meter.snapshot() } });
        return { status: 'cancelled', error: null };
      }
      if (outcome.status === 'failed') return fail(apiErrorCode(outcome.error?.code ?? 'claude_code_error'), outcome.error?.message ?? 'Claude Code failed.');
      await seg.record({ type: 'run.done', data: { summary: null, reply: outcome.reply, usage: meter.snapshot() } });
      return { status: 'completed', error: null };
    } finally {
      clearTimeout(timer);
      this.active.delete(shutdown);
      await lease?.close();
      await this.permissions.cancelPendingForRun(seg.run.id).catch(() => undefined);
    }
  }

  /**
   * H's answer to one `can_use_tool`: the session's permission mode decides (approve asks for
   * everything but reads), and an ask goes through the approval pipeline: the request row and its
   * event, then a wait for the decision (woken by the event bus, checked in the database).
   */
  private async decide(seg: ClaudeCodeSegment, workspace: Workspace, request: ClaudeToolRequest, signal: AbortSignal): Promise<ClaudeDecision> {
    const auth = authorizeCall(seg.session.permissionMode, toolCategory(request.toolName));
    if (auth.behavior === 'allow') return { behavior: 'allow' };
    if (auth.behavior === 'deny') return { behavior: 'deny', message: auth.message };
    await seg.flush(); // the call's tool.start is in the log before the request that refers to it
    // The preview first: the request row and its event are then written in one transaction.
    const as = PREVIEW_AS[request.toolName]?.(request.input);
    const preview = as ? await permissionPreview(as[0], as[1], workspace, this.config.env.FILE_CHANGE_MAX_BYTES) : undefined;
    const { request: permission, appended } = await this.permissions.ask(
      { sessionId: seg.run.sessionId, runId: seg.run.id, toolCallId: request.toolUseId, toolName: request.toolName, input: request.input },
      preview,
      seg.leaseId,
    );
    await this.bus.publishEvents(appended);
    for (;;) {
      const latest = await this.permissions.findById(permission.id);
      if (latest?.status === 'allowed') {
        const edited = latest.decision?.updatedInput;
        return { behavior: 'allow', ...(edited && typeof edited === 'object' ? { updatedInput: edited as Record<string, unknown> } : {}) };
      }
      if (latest && latest.status !== 'pending') return { behavior: 'deny', message: latest.decision?.message ?? `Denied in H by a team member.` };
      if (signal.aborted) throw new Error('the run was stopped');
      // Woken by the decision's event; the database read above is what counts (a missed message costs 2 s).
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          this.decided.delete(permission.id);
          resolve();
        };
        const t = setTimeout(done, 2000);
        signal.addEventListener('abort', done, { once: true });
        this.decided.set(permission.id, done);
      });
    }
  }
}

/** The user message this run answers (the API appended it with the run's id), else the newest one. */
function userMessageOf(log: EventEnvelope[], runId: string): string | null {
  const messages = log.filter((e) => e.type === 'message.user' && !(e.data as { synthetic?: boolean }).synthetic);
  const own = messages.filter((e) => e.runId === runId).at(-1) ?? messages.at(-1);
  return own ? (own.data as { content: string }).content : null;
}
