import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import type { PermissionMode, SessionEngine } from '@h/contracts';
import { AgentSessionRecord, AgentSessionRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { registerConfiguredModels } from '@h/llm';
import { ModelSelectionService } from '@h/providers';

/** What a new session may be given (the IDE's CreateSessionDto, and the bot API's one-call run). */
export interface SessionSettings {
  title?: string;
  /** What runs the session's turns; fixed at create (default `h`). */
  engine?: SessionEngine;
  /** A team provider (libs/providers); null or absent: DeepSeek. */
  providerId?: string | null;
  model?: string;
  thinking?: boolean;
  permissionMode?: PermissionMode;
  /** Runs go step by step unless their message says otherwise (engine h only). */
  stepMode?: boolean;
  maxSteps?: number;
}

/**
 * Making a session, shared by the session routes (`@h/sessions`) and the bot API's one-call run
 * (here): `@h/runs` may not import `@h/sessions`, and two copies of the checks would drift.
 */
@Injectable()
export class SessionFactory {
  constructor(
    private readonly sessions: AgentSessionRepository,
    private readonly config: AppConfig,
    private readonly audit: AuditService,
    private readonly selection: ModelSelectionService,
  ) {
    registerConfiguredModels(config.env.MODEL_CATALOG);
  }

  /** 400 for a step limit above the instance's (models are checked with their provider: `model`). */
  checkRunSettings(body: { maxSteps?: number }): void {
    const limit = this.config.env.AGENT_MAX_STEPS_LIMIT;
    if (body.maxSteps !== undefined && body.maxSteps > limit) {
      throw AppException.badRequest('STEP_LIMIT_TOO_HIGH', `maxSteps may be at most ${limit} on this instance (AGENT_MAX_STEPS_LIMIT).`);
    }
  }

  /**
   * With `id`, the session is made under that id or, when a session of this workspace already has
   * it (a retried idempotent call), that one is returned (`created: false`, nothing audited).
   */
  async create(
    principal: Principal,
    access: AccessGrant,
    workspaceId: string,
    body: SessionSettings,
    ip: string | null = null,
    id?: string,
  ): Promise<{ session: AgentSessionRecord; created: boolean }> {
    this.checkRunSettings(body);
    const providerId = body.providerId ?? null;
    const engine = body.engine ?? 'h';
    if (body.stepMode && engine !== 'h') throw AppException.badRequest('VALIDATION_FAILED', 'stepMode needs engine h: Claude Code runs its own loop.');
    const input = {
      teamId: access.teamId,
      workspaceId,
      createdById: principal.userId,
      // Empty until the first message names it (see titleFromMessage).
      title: body.title?.trim() ?? '',
      engine,
      providerId,
      model: await this.model(access.teamId, engine, providerId, body.model),
      thinking: body.thinking ?? false,
      permissionMode: body.permissionMode ?? 'approve',
      stepMode: body.stepMode ?? false,
      maxSteps: body.maxSteps ?? null,
    };
    let made: { session: AgentSessionRecord; created: boolean } | null;
    if (id) {
      made = await this.sessions.createOrFind({ ...input, id });
      if (!made) throw AppException.conflict('CONFLICT', 'That clientRunId is taken by a run elsewhere; use another one.');
    } else {
      made = { session: await this.sessions.create(input), created: true };
    }
    if (made.created) {
      await this.audit.byPrincipal(principal, { action: 'session.create', teamId: access.teamId, targetType: 'session', targetId: made.session.id, ip });
    }
    return made;
  }

  /**
   * A model from the catalog, or from the team provider's list (its first one by default); 400/404
   * otherwise. A claude-code session's model is whatever the Anthropic(-compatible) endpoint serves
   * (not in H's catalog, and no team provider).
   */
  async model(teamId: string, engine: SessionEngine, providerId: string | null, model: string | undefined): Promise<string> {
    if (engine === 'claude-code') {
      if (providerId) throw AppException.badRequest('VALIDATION_FAILED', 'A claude-code session uses the team\'s Anthropic key: leave providerId empty.');
      return model ?? this.config.env.CLAUDE_CODE_MODEL;
    }
    return (await this.selection.check(teamId, providerId, model)) ?? this.config.env.DEFAULT_MODEL;
  }
}
