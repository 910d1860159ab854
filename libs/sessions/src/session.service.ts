import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { ACTIVE_RUN_STATUSES } from '@h/contracts';
import { AgentSessionRecord, AgentSessionRepository, RunRepository } from '@h/db';
import { AppException } from '@h/http';
import { registerConfiguredModels, unknownModelReason } from '@h/llm';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import type { CreateSessionDto, SessionDto, SessionListDto, SessionStateDto, UpdateSessionDto } from './session.dto';

export function toSessionDto(s: AgentSessionRecord, latestRun: SessionDto['latestRun'] = null): SessionDto {
  const { state: _state, ...rest } = s;
  return { ...rest, title: s.title || 'New session', latestRun };
}

@Injectable()
export class SessionService {
  constructor(
    private readonly sessions: AgentSessionRepository,
    private readonly runs: RunRepository,
    private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {
    registerConfiguredModels(config.env.MODEL_CATALOG);
  }

  /** 400 for a model outside the catalog or a step limit above the instance's. */
  private checkRunSettings(body: { model?: string; maxSteps?: number }): void {
    const unknown = body.model === undefined ? null : unknownModelReason(body.model);
    if (unknown) throw AppException.badRequest('UNKNOWN_MODEL', unknown);
    const limit = this.config.env.AGENT_MAX_STEPS_LIMIT;
    if (body.maxSteps !== undefined && body.maxSteps > limit) {
      throw AppException.badRequest('STEP_LIMIT_TOO_HIGH', `maxSteps may be at most ${limit} on this instance (AGENT_MAX_STEPS_LIMIT).`);
    }
  }

  async create(principal: Principal, access: AccessGrant, workspaceId: string, body: CreateSessionDto, ip: string | null = null): Promise<SessionDto> {
    this.checkRunSettings(body);
    const session = await this.sessions.create({
      teamId: access.teamId,
      workspaceId,
      createdById: principal.userId,
      // Empty until the first message names it (see titleFromMessage).
      title: body.title?.trim() ?? '',
      model: body.model ?? this.config.env.DEFAULT_MODEL,
      thinking: body.thinking ?? false,
      permissionMode: body.permissionMode ?? 'approve',
      maxSteps: body.maxSteps ?? null,
    });
    await this.audit.byPrincipal(principal, { action: 'session.create', teamId: access.teamId, targetType: 'session', targetId: session.id, ip });
    return toSessionDto(session);
  }

  async list(workspaceId: string): Promise<SessionListDto> {
    const sessions = await this.sessions.listByWorkspace(workspaceId);
    const latest = await this.runs.latestForSessions(sessions.map((s) => s.id));
    return { items: sessions.map((s) => toSessionDto(s, latest.get(s.id) ?? null)) };
  }

  async get(id: string): Promise<SessionDto> {
    const session = await this.load(id);
    const latest = await this.runs.latestForSessions([id]);
    return toSessionDto(session, latest.get(id) ?? null);
  }

  async update(principal: Principal, access: AccessGrant, id: string, body: UpdateSessionDto, ip: string | null = null): Promise<SessionDto> {
    this.checkRunSettings(body);
    const session = await this.sessions.update(id, {
      title: body.title?.trim(),
      model: body.model,
      thinking: body.thinking,
      permissionMode: body.permissionMode,
      maxSteps: body.maxSteps,
    });
    if (body.permissionMode) {
      await this.audit.byPrincipal(principal, {
        action: 'session.permission_mode',
        teamId: access.teamId,
        targetType: 'session',
        targetId: id,
        ip,
        metadata: { mode: body.permissionMode },
      });
    }
    return toSessionDto(session);
  }

  async state(id: string): Promise<SessionStateDto> {
    const session = await this.load(id);
    const active = (await this.runs.listBySession(id, 20)).find((r) => ACTIVE_RUN_STATUSES.includes(r.status));
    const state = session.state as { todos?: SessionStateDto['todos']; summary?: string };
    return {
      todos: state.todos ?? [],
      summary: state.summary ?? null,
      usage: session.usage,
      activeRunId: active?.id ?? null,
      lastSeq: session.lastSeq,
    };
  }

  async load(id: string): Promise<AgentSessionRecord> {
    const session = await this.sessions.findById(id);
    if (!session) throw AppException.notFound('Session');
    return session;
  }
}
