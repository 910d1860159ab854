import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { MODEL_PRESETS_PER_TEAM } from '@h/contracts';
import { ModelPresetNameTaken, ModelPresetRecord, ModelPresetRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { listModels, registerConfiguredModels } from '@h/llm';
import { ModelSelectionService } from '../custom-providers/model-selection.service';
import type { CreateModelPresetDto, ModelPresetDto, ModelPresetListDto, UpdateModelPresetDto } from './model-preset.dto';

const nameTaken = (name: string) => new AppException(409, 'CONFLICT', `The team already has a model preset named "${name}"; pick another name.`);

/** A team's model presets: everyone in the team reads them, owners and admins change them. */
@Injectable()
export class ModelPresetService {
  constructor(
    private readonly presets: ModelPresetRepository,
    private readonly audit: AuditService,
    private readonly selection: ModelSelectionService,
    config: AppConfig,
  ) {
    // The same catalog a session's model is checked against (SessionService registers it too).
    registerConfiguredModels(config.env.MODEL_CATALOG);
  }

  async list(access: AccessGrant): Promise<ModelPresetListDto> {
    const models = listModels().map((m) => ({ id: m.id, contextWindow: m.contextWindow, thinking: m.thinking }));
    return { items: await this.presets.listByTeam(access.teamId), models };
  }

  async create(principal: Principal, access: AccessGrant, body: CreateModelPresetDto, ip: string | null): Promise<ModelPresetDto> {
    const providerId = body.providerId ?? null;
    const model = (await this.selection.check(access.teamId, providerId, body.model)) ?? body.model;
    if ((await this.presets.countByTeam(access.teamId)) >= MODEL_PRESETS_PER_TEAM) {
      throw new AppException(409, 'QUOTA_EXCEEDED', `A team keeps at most ${MODEL_PRESETS_PER_TEAM} model presets; delete one first.`);
    }
    const name = body.name.trim();
    let preset: ModelPresetRecord;
    try {
      preset = await this.presets.create({ teamId: access.teamId, name, providerId, model, thinking: body.thinking ?? false, createdById: principal.userId });
    } catch (err) {
      if (err instanceof ModelPresetNameTaken) throw nameTaken(name);
      throw err;
    }
    await this.audit.byPrincipal(principal, { action: 'model_preset.create', teamId: access.teamId, targetType: 'model_preset', targetId: preset.id, ip });
    return preset;
  }

  async update(principal: Principal, access: AccessGrant, id: string, body: UpdateModelPresetDto, ip: string | null): Promise<ModelPresetDto> {
    let providerId: string | null | undefined;
    let model: string | undefined;
    if (body.model !== undefined || body.providerId !== undefined) {
      // The pair is checked together: a new provider with the old model, or a new model on the old provider.
      const current = await this.presets.findInTeam(access.teamId, id);
      if (!current) throw AppException.notFound('Model preset');
      providerId = body.providerId === undefined ? current.providerId : body.providerId;
      model = await this.selection.check(access.teamId, providerId, body.model ?? (body.providerId === undefined ? current.model : undefined));
    }
    const name = body.name?.trim();
    let preset: ModelPresetRecord | null;
    try {
      preset = await this.presets.update(access.teamId, id, { name, providerId, model, thinking: body.thinking });
    } catch (err) {
      if (err instanceof ModelPresetNameTaken) throw nameTaken(name ?? '');
      throw err;
    }
    if (!preset) throw AppException.notFound('Model preset');
    await this.audit.byPrincipal(principal, { action: 'model_preset.update', teamId: access.teamId, targetType: 'model_preset', targetId: id, ip });
    return preset;
  }

  async remove(principal: Principal, access: AccessGrant, id: string, ip: string | null): Promise<void> {
    if (!(await this.presets.remove(access.teamId, id))) throw AppException.notFound('Model preset');
    await this.audit.byPrincipal(principal, { action: 'model_preset.delete', teamId: access.teamId, targetType: 'model_preset', targetId: id, ip });
  }
}
