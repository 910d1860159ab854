import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { FINISHED_RUN_STATUSES } from '@h/contracts';
import { AgentSessionRepository, EventBusRepository, EventRepository, PermissionRepository, QuotaExceededError, RunRecord, RunRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal, quotaExceeded, TeamQuotaService } from '@h/identity';
import { TeamBudgetService } from './budget/team-budget.service';
import { DelegationService } from './delegation.service';
import { RunDispatcher } from './run-dispatcher.service';
import type { PostMessageDto, RunDto, RunListDto } from './run.dto';
import { titleFromMessage } from './session-title';
import { recordRunEnd } from './run-telemetry';

@Injectable()
export class RunService {
  constructor(
    private readonly runs: RunRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly permissions: PermissionRepository,
    private readonly bus: EventBusRepository,
    private readonly events: EventRepository,
    private readonly dispatcher: RunDispatcher,
    private readonly delegation: DelegationService,
    private readonly audit: AuditService,
    private readonly quotas: TeamQuotaService,
    private readonly budget: TeamBudgetService,
    private readonly config: AppConfig,
  ) {}

  async toDto(run: RunRecord): Promise<RunDto> {
    const { teamId: _t, attempts: _a, ...rest } = run;
    return { ...rest, position: await this.runs.queuePosition(run) };
  }

  /** Appends the message, creates the run and answers at once; a worker picks it up when admitted. */
  async postMessage(principal: Principal, access: AccessGrant, sessionId: string, body: PostMessageDto): Promise<{ run: RunDto; created: boolean }> {
    // The access check read the session's team and workspace; nothing else of it is needed here
    // (the title is set in the same statement, only when the session has none).
    // Asking for step mode reads the session (its engine); a plain message costs no read here.
    const session = body.stepMode || !access.workspaceId ? await this.sessions.findById(sessionId) : null;
    const workspaceId = access.workspaceId ?? session?.workspaceId;
    if (!workspaceId) throw AppException.notFound('Session');
    if (body.stepMode && session && session.engine !== 'h') {
      throw AppException.badRequest('VALIDATION_FAILED', 'stepMode needs engine h: Claude Code runs its own loop.');
    }
    // A full sandbox quota (429) or a spent budget (402 BUDGET_EXCEEDED) refuses the run before
    // anything is written; the two checks are independent reads, made at once.
    await Promise.all([this.quotas.assertSandboxCanStart(access.teamId, workspaceId), this.budget.assertCanStart(access.teamId)]);
    const posted = await this.runs
      .createWithMessage({
        sessionId,
        teamId: access.teamId,
        userId: principal.userId,
        content: body.content,
        clientMessageId: body.clientMessageId,
        stepMode: body.stepMode,
        // The first message names the session, in the same transaction.
        title: titleFromMessage(body.content),
        maxActive: this.config.env.TEAM_MAX_ACTIVE_RUNS,
      })
      .catch((err: unknown) => {
        throw err instanceof QuotaExceededError ? quotaExceeded(err) : err;
      });
    if (!posted) throw AppException.notFound('Session');
    const { run, created, events } = posted;
    if (!created) return { run: await this.toDto((await this.runs.findById(run.id)) ?? run), created };
    // Admission first: it is on the path to a working agent; the live fan-out of the message
    // (already in the log) can follow.
    const admitted = (await this.dispatcher.dispatch(access.teamId)).find((r) => r.id === run.id);
    await this.bus.publishEvents(events);
    // Admitted by this pass: running, no queue position, nothing to read back (a burst of 50
    // messages spent two queries each on it). Otherwise the run's state now, and its place in line.
    if (admitted) return { run: await this.toDto(admitted), created };
    return { run: await this.toDto((await this.runs.findById(run.id)) ?? run), created };
  }

  async get(id: string): Promise<RunDto> {
    const run = await this.runs.findById(id);
    if (!run) throw AppException.notFound('Run');
    return this.toDto(run);
  }

  async list(sessionId: string): Promise<RunListDto> {
    const runs = await this.runs.listBySession(sessionId);
    return { items: await Promise.all(runs.map((r) => this.toDto(r))) };
  }

  /**
   * Queued or waiting runs end at once. A running one gets a signal the worker turns into an
   * abort of the model stream and the running command; the worker then records the end.
   */
  async cancel(principal: Principal, access: AccessGrant, id: string, ip: string | null = null): Promise<RunDto> {
    const run = await this.runs.requestCancel(id);
    if (!run) throw AppException.notFound('Run');
    if (FINISHED_RUN_STATUSES.includes(run.status)) {
      throw AppException.conflict('RUN_FINISHED', `The run already ended (${run.status}).`);
    }
    await this.audit.byPrincipal(principal, { action: 'run.cancel', teamId: access.teamId, targetType: 'run', targetId: id, ip });
    if (run.status === 'running') {
      await this.bus.publishCancel(id);
    } else if (await this.isStepInProgress(run)) {
      // Step-by-step mode stops between steps: the step's sub-agent finishes, then the resumed
      // run sees cancelRequestedAt, marks the steps left skipped and ends cancelled.
    } else {
      await this.permissions.cancelPendingForRun(id);
      const events = await this.runs.finish(
        id,
        null,
        { status: 'cancelled' },
        { sessionId: run.sessionId, type: 'run.cancelled', data: { usage: run.usage, by: principal.userId } },
      );
      recordRunEnd(run, 'cancelled');
      await this.bus.publishEvents(events);
      // A parent parked on sub-agents takes them with it; a sub-agent's end may resume its parent.
      await this.delegation.cancelChildren(run, principal.userId);
      await this.delegation.childEnded(run);
      await this.dispatcher.dispatch(access.teamId);
    }
    return this.get(id);
  }

  /** A step-by-step run parked while one step's sub-agent works (its locked plan is in the log). */
  private async isStepInProgress(run: RunRecord): Promise<boolean> {
    if (run.status !== 'waiting_children') return false;
    return (await this.events.list(run.sessionId, { runId: run.id, types: ['step.plan'], limit: 1 })).length > 0;
  }
}
