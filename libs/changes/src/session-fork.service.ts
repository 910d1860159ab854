import { Injectable } from '@nestjs/common';
import { AgentChangeRepository, AgentSessionRepository, EventEnvelope, EventRepository } from '@h/db';
import { FileSandboxService } from '@h/files';
import { AppException, errorStatus } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { orderForRebuild } from '@h/runs';
import { RpcError } from '@h/sandbox-protocol';
import type { ForkSessionDto, ForkSessionResultDto } from './session-fork.dto';
import { toSessionDto } from '@h/sessions';

const COPY_BATCH = 500;

/**
 * Lives here, not in libs/sessions: restoring the files goes through the file API's sandbox
 * service, and libs/files already depends on libs/sessions (socket auth).
 *
 * A new session from an earlier message (issue 10 point 7): the log before that message, copied
 * with new seqs (each run's message moved before its run, as a rebuild reads it, and run ids
 * dropped: the runs stay the original session's), and the workspace's files restored to the
 * checkpoint of the first run from that message on that has one. `file.changed` events are left
 * out: their changes belong to the original session's runs, and undoing them from the fork would
 * act on the original's history.
 */
@Injectable()
export class SessionForkService {
  constructor(
    private readonly sessions: AgentSessionRepository,
    private readonly events: EventRepository,
    private readonly changes: AgentChangeRepository,
    private readonly sandbox: FileSandboxService,
    private readonly audit: AuditService,
  ) {}

  async fork(principal: Principal, access: AccessGrant, sessionId: string, body: ForkSessionDto, ip: string | null = null): Promise<ForkSessionResultDto> {
    const source = await this.sessions.findById(sessionId);
    if (!source) throw AppException.notFound('Session');
    const log = await this.events.listAll(sessionId);
    const message = log.find((e) => e.seq === body.atSeq);
    const data = message?.data as { content?: string; synthetic?: boolean } | undefined;
    if (!message || message.type !== 'message.user' || data?.synthetic) {
      throw AppException.badRequest('VALIDATION_FAILED', `atSeq ${body.atSeq} is not a message a person wrote in this session; fork from a user message's seq.`);
    }
    if (await this.changes.workspaceHasActiveRun(source.workspaceId)) {
      throw AppException.conflict('RUN_ACTIVE', 'A run is still going in this workspace; wait for it to end or cancel it, then fork.');
    }
    const { kept, laterRuns } = cutLog(log, message);
    let restoredCheckpoint: string | null = null;
    if (body.restoreFiles !== false) {
      const checkpoints = await this.changes.runCheckpoints(laterRuns);
      restoredCheckpoint = laterRuns.map((id) => checkpoints.get(id)).find((id) => id !== undefined) ?? null;
      if (restoredCheckpoint) await this.restore(source.workspaceId, restoredCheckpoint);
    }
    const session = await this.sessions.create({
      teamId: source.teamId,
      workspaceId: source.workspaceId,
      createdById: principal.userId,
      title: `${source.title || 'Session'} (fork)`.slice(0, 200),
      providerId: source.providerId,
      model: source.model,
      thinking: source.thinking,
      permissionMode: source.permissionMode,
      stepMode: source.stepMode,
      maxSteps: source.maxSteps,
      // session_trace's lineage (libs/session-search).
      forkedFromId: source.id,
    });
    for (let i = 0; i < kept.length; i += COPY_BATCH) {
      await this.events.append(session.id, kept.slice(i, i + COPY_BATCH).map((e) => ({ type: e.type, data: e.data })));
    }
    await this.audit.byPrincipal(principal, {
      action: 'session.fork',
      teamId: access.teamId,
      targetType: 'session',
      targetId: session.id,
      ip,
      metadata: { from: sessionId, atSeq: body.atSeq, restoredCheckpoint },
    });
    const created = (await this.sessions.findById(session.id)) ?? session;
    return { session: toSessionDto(created), restoredCheckpoint, draft: data?.content ?? '' };
  }

  private async restore(workspaceId: string, checkpointId: string): Promise<void> {
    try {
      await this.sandbox.call(workspaceId, 'checkpoint.restore', { id: checkpointId });
    } catch (err) {
      const code = err instanceof RpcError ? err.data?.code : err instanceof AppException ? err.code : undefined;
      if (code === 'NOT_FOUND' || code === 'FILE_NOT_FOUND') {
        throw new AppException(
          errorStatus('CHECKPOINT_GONE'),
          'CHECKPOINT_GONE',
          'The files as they were then are no longer kept for this workspace. Fork with restoreFiles: false to keep the files as they are now.',
        );
      }
      throw err;
    }
  }
}

/**
 * The events before `message`'s run (runs of a session execute one at a time, so everything an
 * earlier run logged comes before the next one starts), in rebuild order; and the runs from
 * `message` on, in the order they started.
 */
export function cutLog(log: EventEnvelope[], message: EventEnvelope): { kept: EventEnvelope[]; laterRuns: string[] } {
  const started = new Map<string, number>();
  for (const e of log) if (e.type === 'run.started' && e.runId && !started.has(e.runId)) started.set(e.runId, e.seq);
  const cut = (message.runId && started.get(message.runId)) || message.seq;
  const earlier = new Set([...started].filter(([, seq]) => seq < cut).map(([id]) => id));
  const kept = log.filter((e) => {
    if (e.seq >= cut || e.type === 'file.changed') return false;
    // A message for a run that had not started by then (queued behind, or never run) is not history yet.
    return !(e.type === 'message.user' && e.runId && !earlier.has(e.runId));
  });
  const laterRuns = [...started].filter(([, seq]) => seq >= cut).sort((a, b) => a[1] - b[1]).map(([id]) => id);
  return { kept: orderForRebuild(kept, '').map((e) => ({ ...e, runId: null })), laterRuns };
}
