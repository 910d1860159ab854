import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { Injectable } from '@nestjs/common';
import type { PermissionMode } from '@h/contracts';
import { AgentSessionRepository, EventRepository, FINISHED_RUN_STATUSES, H2cTaskRecord, H2cTaskRepository, PermissionRepository, RunRepository, type TeamRoleName, WorkspaceRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AccessService, Principal, roleAtLeast, type TokenPrincipal } from '@h/identity';
import { PermissionService, RunService } from '@h/runs';
import { SessionService } from '@h/sessions';
import type { CreateTaskDto, H2cCancelDto, H2cCreatedTaskDto, H2cPermissionAnswerDto, H2cTaskDto, H2cTaskOutputDto, TaskPermissionDto } from './h2c.dto';
import { h2cTask, TERMINAL_EVENTS } from './h2c-frames';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A task the caller may see, with the grant its team role gives. */
export interface TaskAccess {
  task: H2cTaskRecord;
  principal: TokenPrincipal;
  access: AccessGrant;
}

// An h2c task IS an H session with one run: created through the session and run services (so it
// is audited, counted by the quotas, admitted like any run and shown in the IDE live), and answered
// from the run's row and its event log. Only the mapping task id → session/run is h2c's own.
@Injectable()
export class H2cTaskService {
  constructor(
    private readonly tasks: H2cTaskRepository,
    private readonly sessions: AgentSessionRepository,
    private readonly runs: RunRepository,
    private readonly events: EventRepository,
    private readonly permissionRequests: PermissionRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly accessService: AccessService,
    private readonly sessionService: SessionService,
    private readonly runService: RunService,
    private readonly permissionService: PermissionService,
  ) {}

  /** h2c clients hold API tokens; a browser session has no team to pick a workspace from. */
  private tokenOf(principal: Principal): TokenPrincipal {
    if (principal.kind !== 'token') {
      throw AppException.unauthorized('The h2c endpoints take an API token: Authorization: Bearer <token>, or Basic with the token as password.');
    }
    return principal;
  }

  private async grant(principal: TokenPrincipal, workspaceId: string, minRole: TeamRoleName): Promise<AccessGrant> {
    const role = await this.accessService.effectiveRole(principal, principal.teamId);
    // A token whose creator left the team is dead: authentication normally catches that first.
    if (!role) throw AppException.unauthorized('This API token no longer belongs to a member of its team.');
    if (!roleAtLeast(role, minRole)) {
      throw AppException.forbidden(`This needs the ${minRole} role or higher in the team; this API token acts as ${role}.`);
    }
    return { teamId: principal.teamId, workspaceId, role };
  }

  /** The token's own workspace, or the one `cwd` names (id, name, or a path ending in the name). */
  private async workspaceFor(principal: TokenPrincipal, cwd: string | undefined): Promise<string> {
    if (principal.workspaceId) return principal.workspaceId;
    const wanted = cwd?.trim();
    if (wanted) {
      const all = await this.workspaces.listByTeam(principal.teamId);
      const byId = UUID.test(wanted) ? all.find((w) => w.id === wanted.toLowerCase()) : undefined;
      const last = basename(wanted.replace(/[/\\]+$/, ''));
      const found = byId ?? all.find((w) => w.name === wanted) ?? all.find((w) => w.name === last);
      if (found) return found.id;
    }
    throw AppException.badRequest(
      'WORKSPACE_REQUIRED',
      wanted
        ? `No workspace of this team is called "${wanted}" (cwd is matched against workspace ids and names, or the last segment of a path).`
        : 'This API token is not bound to a workspace: name one in cwd (its name or id), or use a workspace-bound token.',
    );
  }

  /** The task if it is the caller's team's (and within a workspace-bound token's workspace): else 404. */
  private async load(principal: Principal, taskId: string | undefined, minRole: TeamRoleName): Promise<TaskAccess> {
    const token = this.tokenOf(principal);
    if (!taskId) throw AppException.badRequest('VALIDATION_FAILED', 'task_id is required');
    const task = await this.tasks.findInTeam(taskId, token.teamId);
    if (!task || (token.workspaceId && token.workspaceId !== task.workspaceId)) throw AppException.notFound('Task');
    return { task, principal: token, access: await this.grant(token, task.workspaceId, minRole) };
  }

  readable(principal: Principal, taskId: string | undefined): Promise<TaskAccess> {
    return this.load(principal, taskId, 'viewer');
  }

  /** Ids of the task's permission requests already answered (a replay need not ask them again). */
  async answeredRequests(task: H2cTaskRecord): Promise<Set<string>> {
    const all = await this.permissionRequests.listBySession(task.sessionId);
    return new Set(all.filter((p) => p.runId === task.runId && p.status !== 'pending').map((p) => p.id));
  }

  async create(principal: Principal, body: CreateTaskDto, ip: string | null): Promise<H2cCreatedTaskDto> {
    const token = this.tokenOf(principal);
    const workspaceId = await this.workspaceFor(token, body.cwd);
    const access = await this.grant(token, workspaceId, 'member');
    const permissionMode: PermissionMode = body.skip_permissions ? 'skip' : (body.permission_mode ?? 'approve');
    const session = await this.sessionService.create(token, access, workspaceId, { permissionMode }, ip);
    // A task is its session and run together: a prompt refused (a quota) leaves no empty session behind.
    const { run } = await this.runService.postMessage(token, access, session.id, { content: body.prompt }).catch(async (err: unknown) => {
      await this.sessions.removeIfEmpty(session.id);
      throw err;
    });
    const task = await this.tasks.create({ id: `task_${randomBytes(16).toString('hex')}`, teamId: access.teamId, workspaceId, sessionId: session.id, runId: run.id });
    return { task_id: task.id, status: 'created' };
  }

  async get(principal: Principal, taskId: string | undefined): Promise<H2cTaskDto> {
    const { task } = await this.readable(principal, taskId);
    return this.describe(task);
  }

  async output(principal: Principal, taskId: string | undefined): Promise<H2cTaskOutputDto> {
    const task = await this.get(principal, taskId);
    return { retrieval_status: task.exitCode === null ? 'pending' : 'success', task };
  }

  private async describe(task: H2cTaskRecord): Promise<H2cTaskDto> {
    const run = await this.runs.findById(task.runId);
    if (!run) throw AppException.notFound('Task');
    const terminal = FINISHED_RUN_STATUSES.includes(run.status) ? await this.events.lastOfRun(task.sessionId, task.runId, TERMINAL_EVENTS) : null;
    return h2cTask(task.id, run, terminal, await this.runs.queuePosition(run));
  }

  async cancel(principal: Principal, taskId: string | undefined, ip: string | null): Promise<H2cCancelDto> {
    const { task, principal: token, access } = await this.load(principal, taskId, 'member');
    const run = await this.runService.cancel(token, access, task.runId, ip);
    return { task_id: task.id, status: run.status === 'cancelled' ? 'cancelled' : 'cancelling' };
  }

  /** Answers the task's request `request_id`, or its oldest one waiting: the same decision the IDE makes. */
  async decide(principal: Principal, body: TaskPermissionDto, ip: string | null): Promise<H2cPermissionAnswerDto> {
    const { task, principal: token, access } = await this.load(principal, body.task_id, 'member');
    const pending = (await this.permissionRequests.listBySession(task.sessionId, 'pending')).filter((p) => p.runId === task.runId);
    const wanted = body.request_id?.toLowerCase();
    const request = wanted ? pending.find((p) => p.id === wanted) : pending[0];
    if (!request) throw AppException.conflict('NO_PENDING_REQUEST', 'This task has no permission request waiting for an answer.');
    await this.permissionService.decide(token, access, request.id, { behavior: body.behavior, updatedInput: body.updatedInput, message: body.message }, ip);
    return { task_id: task.id, request_id: request.id, behavior: body.behavior };
  }
}
