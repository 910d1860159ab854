import { Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { EgressLogRepository, QuotaExceededError, SandboxRepository, WorkspaceRecord, WorkspaceRepository } from '@h/db';
import { isAllowlistEntry, normalizeHost } from '@h/egress';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal, quotaExceeded, roleAtLeast } from '@h/identity';
import { JobName, JobQueueService } from '@h/jobs';
import { WorkspaceSourceStore } from './workspace-import.port';
import type { CreateWorkspaceDto, EgressLogDto, UpdateWorkspaceDto, WorkspaceDto, WorkspaceListDto } from './workspace.dto';

const EGRESS_LOG_PAGE = 100;

function toDto({ createdById: _c, ...w }: WorkspaceRecord): WorkspaceDto {
  return w;
}

@Injectable()
export class WorkspaceService {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly sandboxes: SandboxRepository,
    private readonly jobs: JobQueueService,
    private readonly audit: AuditService,
    private readonly egressLog: EgressLogRepository,
    private readonly config: AppConfig,
    // libs/git-remote's api module provides it; without it only empty workspaces can be made.
    @Optional() private readonly sources?: WorkspaceSourceStore,
  ) {}

  async list(access: AccessGrant): Promise<WorkspaceListDto> {
    return { items: (await this.workspaces.listByTeam(access.teamId)).map(toDto) };
  }

  /**
   * `prepare` runs after the row exists and before setup is queued (an uploaded archive is put
   * where the worker finds it); a failure there removes the workspace again.
   */
  async create(
    principal: Principal,
    access: AccessGrant,
    body: CreateWorkspaceDto,
    ip: string | null,
    prepare?: (workspaceId: string) => Promise<void>,
  ): Promise<WorkspaceDto> {
    if (body.source && !this.sources) throw new AppException(422, 'UNPROCESSABLE', 'This server cannot clone repositories.');
    const checked = body.source && this.sources ? await this.sources.check(body.source) : undefined;
    const workspace = await this.workspaces
      .create(
        { teamId: access.teamId, createdById: principal.userId, name: body.name.trim(), description: body.description?.trim() ?? '' },
        this.config.env.TEAM_MAX_WORKSPACES,
      )
      .catch((err: unknown) => {
        throw err instanceof QuotaExceededError ? quotaExceeded(err) : err;
      });
    try {
      if (checked !== undefined) await this.sources?.save(workspace.id, checked);
      await prepare?.(workspace.id);
    } catch (err) {
      await this.workspaces.remove(workspace.id);
      throw err;
    }
    // Setup runs in the worker; the workspace shows "provisioning" until it finishes.
    await this.jobs.enqueue(JobName.WorkspaceSetup, { workspaceId: workspace.id }, { jobId: `setup-${workspace.id}` });
    await this.audit.byPrincipal(principal, {
      action: 'workspace.create',
      teamId: access.teamId,
      targetType: 'workspace',
      targetId: workspace.id,
      ip,
      metadata: { name: workspace.name },
    });
    return toDto(workspace);
  }

  /** Runs a failed setup (clone, unpack, sandbox) again, e.g. after the token was replaced. */
  async retrySetup(principal: Principal, access: AccessGrant, id: string, ip: string | null): Promise<WorkspaceDto> {
    const current = await this.get(access, id);
    if (current.status !== 'error') throw AppException.conflict('CONFLICT', `Only a workspace whose setup failed can be set up again; this one is ${current.status}.`);
    const workspace = await this.workspaces.markSetUp(id, 'provisioning', 'Waiting for a worker…');
    await this.jobs.enqueue(JobName.WorkspaceSetup, { workspaceId: id }, { jobId: `setup-${id}-${Date.now()}` });
    await this.audit.byPrincipal(principal, { action: 'workspace.setup.retry', teamId: access.teamId, targetType: 'workspace', targetId: id, ip });
    return toDto(workspace);
  }

  async get(access: AccessGrant, id: string): Promise<WorkspaceDto> {
    const workspace = await this.workspaces.findById(id);
    if (!workspace || workspace.teamId !== access.teamId) throw AppException.notFound('Workspace');
    return toDto(workspace);
  }

  async update(principal: Principal, access: AccessGrant, id: string, body: UpdateWorkspaceDto, ip: string | null): Promise<WorkspaceDto> {
    const minRole = this.config.env.NETWORK_ENABLE_MIN_ROLE;
    if ((body.networkEnabled !== undefined || body.allowedHosts !== undefined) && !roleAtLeast(access.role, minRole)) {
      throw AppException.forbidden(`Changing sandbox network access or its allowed hosts needs the ${minRole} role.`);
    }
    const allowedHosts = body.allowedHosts === undefined ? undefined : checkedAllowlist(body.allowedHosts);
    // A changed networkEnabled re-creates the sandbox (same volume) the next time it is opened; a
    // changed allowlist applies to the next connection, the proxy reads it every time.
    const workspace = await this.workspaces.update(id, {
      name: body.name?.trim(),
      description: body.description?.trim(),
      networkEnabled: body.networkEnabled,
      allowedHosts,
    });
    await this.audit.byPrincipal(principal, {
      action: 'workspace.update',
      teamId: access.teamId,
      targetType: 'workspace',
      targetId: id,
      ip,
      metadata: { fields: Object.keys(body) },
    });
    return toDto(workspace);
  }

  /** The sandbox's recent connections through the egress proxy, allowed and refused. */
  async listEgress(access: AccessGrant, id: string): Promise<EgressLogDto> {
    await this.get(access, id);
    const items = await this.egressLog.listRecent(id, EGRESS_LOG_PAGE);
    return { items: items.map(({ workspaceId: _w, ...e }) => e) };
  }

  async remove(principal: Principal, access: AccessGrant, id: string, ip: string | null): Promise<void> {
    // The sandbox row goes with the workspace; its record tells the worker what to remove.
    const sandbox = await this.sandboxes.find(id);
    await this.workspaces.remove(id);
    await this.jobs.enqueue(JobName.WorkspaceTeardown, { workspaceId: id, record: sandbox?.record ?? null });
    await this.audit.byPrincipal(principal, { action: 'workspace.delete', teamId: access.teamId, targetType: 'workspace', targetId: id, ip });
  }
}

/** Lower-cased, de-duplicated entries, each an exact host name or `*.example.com`; never an IP. */
function checkedAllowlist(entries: string[]): string[] {
  const bad = entries.find((e) => !isAllowlistEntry(e));
  if (bad !== undefined) {
    throw AppException.badRequest(
      'INVALID_ALLOWED_HOST',
      `allowedHosts: "${bad.slice(0, 80)}" is not a host name; give names such as registry.example.org or *.git.example.com (no IP addresses, ports or URLs)`,
    );
  }
  return [...new Set(entries.map(normalizeHost))];
}
