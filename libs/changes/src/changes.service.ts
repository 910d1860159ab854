import { Injectable } from '@nestjs/common';
import type { AgentChangeStatus } from '@h/contracts';
import { AgentChangeRecord, AgentChangeRepository, EventBusRepository, EventRepository, RunRepository } from '@h/db';
import { FileSandboxService, toJsonContent } from '@h/files';
import { AppException, errorStatus } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { RpcError } from '@h/sandbox-protocol';
import { planRestore, type PathState, type RestoreStep } from './change-restore';
import type { AgentChangeDto, AgentChangeListDto, AgentChangeRestoreDto } from './changes.dto';

const UNDOABLE: AgentChangeStatus[] = ['applied', 'accepted'];

/**
 * Review of the agent's file changes. A reject or a run's revert is planned against the sandbox's
 * files first (all or nothing), claimed in the database (two people at once: one wins), written
 * back through sandboxd with the same conditional writes the file API uses, and logged as one
 * `file.change.resolved` event, which every open console shows and the agent is told of.
 */
@Injectable()
export class ChangesService {
  constructor(
    private readonly changes: AgentChangeRepository,
    private readonly runs: RunRepository,
    private readonly events: EventRepository,
    private readonly bus: EventBusRepository,
    private readonly sandbox: FileSandboxService,
    private readonly audit: AuditService,
  ) {}

  async listBySession(sessionId: string): Promise<AgentChangeListDto> {
    return { items: await this.changes.listBySession(sessionId) };
  }

  async get(id: string): Promise<AgentChangeDto> {
    const change = await this.changes.findById(id);
    if (!change) throw AppException.notFound('Change');
    return change;
  }

  async accept(principal: Principal, access: AccessGrant, id: string): Promise<AgentChangeDto> {
    const change = await this.get(id);
    if (change.status === 'accepted') return change;
    if (change.status !== 'applied') throw alreadyUndone(change);
    const marked = await this.changes.markDecided([id], 'accepted', ['applied'], principal.userId);
    if (marked.length) await this.logDecision(principal, access, [change], 'accepted');
    return this.get(id);
  }

  async reject(principal: Principal, access: AccessGrant, id: string): Promise<AgentChangeDto> {
    const change = await this.get(id);
    if (!UNDOABLE.includes(change.status)) throw alreadyUndone(change);
    await this.undo(principal, access, access.workspaceId ?? '', [change], 'rejected');
    return this.get(id);
  }

  async revertRun(principal: Principal, access: AccessGrant, runId: string): Promise<AgentChangeRestoreDto> {
    const run = await this.runs.findById(runId);
    if (!run) throw AppException.notFound('Run');
    const open = (await this.changes.listByRun(runId)).filter((c) => UNDOABLE.includes(c.status)).reverse();
    if (!open.length) return { items: [] };
    const undone = await this.undo(principal, access, access.workspaceId ?? '', open, 'reverted');
    return { items: await Promise.all(undone.map((c) => this.get(c.id))) };
  }

  /** `changes` newest first. */
  private async undo(principal: Principal, access: AccessGrant, workspaceId: string, changes: AgentChangeRecord[], status: 'rejected' | 'reverted'): Promise<AgentChangeRecord[]> {
    const plan = await planRestore(changes, (path) => this.state(workspaceId, path));
    if (!plan.ok) {
      const current = plan.current.kind === 'file' && plan.current.data ? { exists: true, size: plan.current.data.length, ...toJsonContent(plan.current.data) } : { exists: plan.current.kind !== 'none', size: plan.current.size ?? 0 };
      if (plan.problem === 'not_restorable') {
        throw new AppException(errorStatus('CHANGE_NOT_RESTORABLE'), 'CHANGE_NOT_RESTORABLE', `Cannot restore ${plan.path}: ${plan.reason}. Nothing was changed.`, {}, { changeId: plan.change.id, path: plan.path });
      }
      throw new AppException(
        errorStatus('CHANGE_CONFLICT'),
        'CHANGE_CONFLICT',
        `Cannot restore ${plan.path}: ${plan.reason}. Nothing was changed; compare the versions, then edit the file yourself.`,
        {},
        { changeId: plan.change.id, path: plan.path, current, recorded: plan.change.after, restore: plan.change.before },
      );
    }
    const ids = changes.map((c) => c.id);
    const claimed = await this.changes.markDecided(ids, status, UNDOABLE, principal.userId);
    if (claimed.length !== ids.length) {
      // Someone else undid one of them in the meantime: give back what this request claimed.
      await this.changes.release(claimed, status);
      throw AppException.conflict('CHANGE_ALREADY_DECIDED', 'Someone else undid this change a moment ago; reload to see it.');
    }
    const done: AgentChangeRecord[] = [];
    try {
      for (const { change, step } of plan.steps) {
        await this.apply(workspaceId, step);
        done.push(change);
      }
    } catch (err) {
      const left = ids.filter((id) => !done.some((c) => c.id === id));
      await this.changes.release(left, status);
      if (done.length) await this.logDecision(principal, access, done, status);
      if (isWriteConflict(err)) throw AppException.conflict('CHANGE_CONFLICT', 'A file changed while it was being restored; nothing more was restored. Reload and try again.');
      throw err;
    }
    await this.logDecision(principal, access, done, status);
    return done;
  }

  private async state(workspaceId: string, path: string): Promise<PathState> {
    const st = await this.sandbox.call(workspaceId, 'fs.stat', { path });
    if (!st) return { kind: 'none' };
    if (st.type === 'directory') return { kind: 'dir' };
    try {
      const r = await this.sandbox.call(workspaceId, 'fs.read', { path, encoding: 'base64' });
      return { kind: 'file', data: Buffer.from(r.content, 'base64'), size: r.size };
    } catch (err) {
      if (err instanceof AppException && err.code === 'FILE_TOO_LARGE') return { kind: 'file', size: st.size };
      throw err;
    }
  }

  private async apply(workspaceId: string, step: RestoreStep): Promise<void> {
    if (step.op === 'write') {
      await this.sandbox.call(workspaceId, 'fs.write', { path: step.path, content: step.content, encoding: 'utf8', ifSha256: step.ifSha256 });
    } else if (step.op === 'delete') {
      await this.sandbox.call(workspaceId, 'fs.delete', { path: step.path, recursive: false });
    } else {
      await this.sandbox.call(workspaceId, 'fs.rename', { from: step.from, to: step.to });
    }
  }

  private async logDecision(principal: Principal, access: AccessGrant, changes: AgentChangeRecord[], status: 'accepted' | 'rejected' | 'reverted'): Promise<void> {
    const first = changes[0];
    const appended = await this.events.append(
      first.sessionId,
      [
        {
          type: 'file.change.resolved',
          data: {
            changeIds: changes.map((c) => c.id),
            status,
            changes: changes.map((c) => ({ changeId: c.id, kind: c.kind, path: c.path, fromPath: c.fromPath })),
            decidedBy: principal.userId,
          },
        },
      ],
      { runId: first.runId },
    );
    await this.bus.publishEvents(appended);
    await this.audit.byPrincipal(principal, {
      action: `change.${status}`,
      teamId: access.teamId,
      targetType: status === 'reverted' ? 'run' : 'change',
      targetId: status === 'reverted' ? first.runId : first.id,
      ip: null,
      metadata: { paths: changes.map((c) => c.path) },
    });
  }
}

function alreadyUndone(change: AgentChangeRecord): AppException {
  return AppException.conflict('CHANGE_ALREADY_DECIDED', `This change was already ${change.status}; its earlier content is back.`);
}

function isWriteConflict(err: unknown): boolean {
  const code = err instanceof RpcError ? err.data?.code : err instanceof AppException ? err.code : undefined;
  return code === 'EDIT_CONFLICT' || code === 'ALREADY_EXISTS';
}
