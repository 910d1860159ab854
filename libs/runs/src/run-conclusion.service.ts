import { Injectable, Logger } from '@nestjs/common';
import { INTERRUPTED_RESULT, type AgentRunResult } from '@h/agent';
import type { ErrorCode, Workspace } from '@h/contracts';
import { AppConfig } from '@h/config';
import { EventBusRepository, EventEnvelope, EventRepository, PermissionRepository, RunRecord, RunRepository } from '@h/db';
import type { DelegationRequest } from '@h/tools';
import { apiErrorCode } from './engine-error-codes';
import { DelegationService } from './delegation.service';
import { permissionPreview } from './permission-preview';
import { RunMemory } from './run-memory';
import { recordRunEnd } from './run-telemetry';

/**
 * How a run segment ends (agent-run.job.ts): parked for its sub-agents or for a person's decision,
 * or finished with its terminal status; and, when a segment resumes after a lost worker, the calls
 * that worker left without an end.
 */
@Injectable()
export class RunConclusion {
  private readonly logger = new Logger(RunConclusion.name);

  constructor(
    private readonly config: AppConfig,
    private readonly runs: RunRepository,
    private readonly events: EventRepository,
    private readonly permissions: PermissionRepository,
    private readonly bus: EventBusRepository,
    private readonly delegation: DelegationService,
    private readonly memory: RunMemory,
  ) {}

  /** After the engine returned: park for sub-agents or a decision, or end the run. */
  async conclude(run: RunRecord, leaseId: string, result: AgentRunResult, workspace: Workspace, delegations: Map<string, DelegationRequest[]>, workspaceId: string): Promise<void> {
    const delegated = result.status === 'paused' && result.waitingFor === 'delegation' && result.pendingCall ? delegations.get(result.pendingCall.id) : undefined;
    if (delegated && result.pendingCall) {
      // The parent parks without a worker; the last sub-agent to end puts it back in line. Each
      // child is told the user's profile subset (≤ 1,500 characters) with its task.
      const memory = await this.memory.profile(run, workspaceId);
      await this.delegation.startChildren({ parent: run, leaseId, key: result.pendingCall.id, children: delegated.map((c) => ({ ...c, memory })) });
      return;
    }
    if (result.status === 'paused' && result.pendingCall) {
      const call = result.pendingCall;
      let input: unknown = call.arguments;
      try {
        input = JSON.parse(call.arguments);
      } catch {
        /* keep the raw text */
      }
      // The preview first: the request row and its event are then written in one transaction.
      const preview = await permissionPreview(call.name, input, workspace, this.config.env.FILE_CHANGE_MAX_BYTES);
      const { request, appended } = await this.permissions.ask(
        { sessionId: run.sessionId, runId: run.id, toolCallId: call.id, toolName: call.name, input },
        preview,
        leaseId,
      );
      await this.bus.publishEvents(appended);
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
  async closeInterruptedCalls(run: RunRecord, leaseId: string, log: EventEnvelope[]): Promise<EventEnvelope[]> {
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
  async finish(
    run: RunRecord,
    leaseId: string,
    status: 'completed' | 'failed' | 'cancelled',
    error: { code: ErrorCode; message: string } | null,
    finalEvent?: { type: string; data: unknown },
  ): Promise<void> {
    const appended = await this.runs.finish(run.id, leaseId, { status, error }, finalEvent ? { sessionId: run.sessionId, ...finalEvent } : undefined);
    recordRunEnd(run, status);
    await this.bus.publishEvents(appended);
    // A sub-agent's end may be its parent's last: the parent then goes back in line.
    await this.delegation.childEnded(run);
  }
}
