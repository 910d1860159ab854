import { Injectable } from '@nestjs/common';
import { ACTIVE_RUN_STATUSES } from '@h/contracts';
import { AgentSessionRecord, AgentSessionRepository, RunRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { SessionFactory } from '@h/runs';
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
    private readonly factory: SessionFactory,
    private readonly audit: AuditService,
  ) {}

  async create(principal: Principal, access: AccessGrant, workspaceId: string, body: CreateSessionDto, ip: string | null = null): Promise<SessionDto> {
    return toSessionDto((await this.factory.create(principal, access, workspaceId, body, ip)).session);
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
    this.factory.checkRunSettings(body);
    let providerId: string | null | undefined;
    let model: string | undefined;
    if (body.stepMode && (await this.load(id)).engine !== 'h') {
      throw AppException.badRequest('VALIDATION_FAILED', 'stepMode needs engine h: Claude Code runs its own loop.');
    }
    if (body.model !== undefined || body.providerId !== undefined) {
      // Provider and model are checked as a pair: a new provider with the current model, or a new model on the current provider.
      const current = await this.load(id);
      providerId = body.providerId === undefined ? current.providerId : body.providerId;
      model = await this.factory.model(access.teamId, current.engine, providerId, body.model ?? (body.providerId === undefined ? current.model : undefined));
    }
    const session = await this.sessions.update(id, {
      title: body.title?.trim(),
      providerId,
      model,
      thinking: body.thinking,
      permissionMode: body.permissionMode,
      stepMode: body.stepMode,
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
