import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@h/config';
import { CUSTOM_PROVIDERS_PER_TEAM, type ProviderModel } from '@h/contracts';
import { CustomProviderInUse, CustomProviderNameTaken, CustomProviderRecord, CustomProviderRepository, ModelPresetRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { isModelError } from '@h/llm';
import { SecretBoxService } from '../secret-box.service';
import { openCustomProviderKey, sealCustomProviderKey } from './custom-provider-secret';
import type { CreateCustomProviderDto, CustomProviderDto, CustomProviderListDto, DiscoveredModelListDto, UpdateCustomProviderDto } from './custom-provider.dto';
import { createGuardedFetch } from './guarded-fetch';
import { checkProviderModels, parseModelList, ProviderModelsError } from './provider-models';
import { assertResolvedHostAllowed, checkProviderBaseUrl, ProviderUrlError } from './provider-url';

/** How long `GET /models` may take, and how much of its answer is read. */
const FETCH_MODELS_TIMEOUT_MS = 10_000;
const FETCH_MODELS_MAX_BYTES = 2 * 1024 * 1024;

const nameTaken = (name: string) => new AppException(409, 'CONFLICT', `The team already has a provider named "${name}"; pick another name.`);

/**
 * A team's own OpenAI-compatible providers: everyone in the team sees them (never their key),
 * owners and admins add, change and delete them. Base URLs pass provider-url.ts; keys are sealed
 * like the DeepSeek key, bound to the team and the provider's id.
 */
@Injectable()
export class CustomProviderService {
  constructor(
    private readonly providers: CustomProviderRepository,
    private readonly presets: ModelPresetRepository,
    private readonly box: SecretBoxService,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  async list(access: AccessGrant): Promise<CustomProviderListDto> {
    return { items: await this.providers.listByTeam(access.teamId) };
  }

  async get(access: AccessGrant, id: string): Promise<CustomProviderDto> {
    return this.load(access.teamId, id);
  }

  async create(principal: Principal, access: AccessGrant, body: CreateCustomProviderDto, ip: string | null): Promise<CustomProviderDto> {
    const baseUrl = await this.checkedUrl(body.baseUrl);
    const models = checkedModels(body.models ?? []);
    if ((await this.providers.countByTeam(access.teamId)) >= CUSTOM_PROVIDERS_PER_TEAM) {
      throw new AppException(409, 'QUOTA_EXCEEDED', `A team keeps at most ${CUSTOM_PROVIDERS_PER_TEAM} providers; delete one first.`);
    }
    const id = randomUUID();
    const name = body.name.trim();
    const secret = body.apiKey ? sealCustomProviderKey(this.box, access.teamId, id, body.apiKey) : null;
    let created: CustomProviderRecord;
    try {
      created = await this.providers.create({ id, teamId: access.teamId, name, baseUrl, models, secret, createdById: principal.userId });
    } catch (err) {
      if (err instanceof CustomProviderNameTaken) throw nameTaken(name);
      throw err;
    }
    await this.audit.byPrincipal(principal, {
      action: 'custom_provider.create', teamId: access.teamId, targetType: 'custom_provider', targetId: id, ip,
      metadata: { name, baseUrl, models: models.length, key: !!secret },
    });
    return created;
  }

  async update(principal: Principal, access: AccessGrant, id: string, body: UpdateCustomProviderDto, ip: string | null): Promise<CustomProviderDto> {
    const current = await this.load(access.teamId, id);
    const baseUrl = body.baseUrl === undefined ? undefined : await this.checkedUrl(body.baseUrl);
    const models = body.models === undefined ? undefined : checkedModels(body.models);
    if (models) await this.assertPresetModelsKept(access.teamId, current, models);
    const name = body.name?.trim();
    const secret = body.apiKey === undefined ? undefined : body.apiKey === null ? null : sealCustomProviderKey(this.box, access.teamId, id, body.apiKey);
    let updated: CustomProviderRecord | null;
    try {
      updated = await this.providers.update(access.teamId, id, { name, baseUrl, models, secret });
    } catch (err) {
      if (err instanceof CustomProviderNameTaken) throw nameTaken(name ?? '');
      throw err;
    }
    if (!updated) throw AppException.notFound('Provider');
    const changed = Object.entries({ name, baseUrl, models, apiKey: body.apiKey }).filter(([, v]) => v !== undefined).map(([k]) => k);
    await this.audit.byPrincipal(principal, {
      action: 'custom_provider.update', teamId: access.teamId, targetType: 'custom_provider', targetId: id, ip,
      metadata: { changed, ...(body.apiKey === null ? { key: 'removed' } : body.apiKey ? { key: 'replaced' } : {}) },
    });
    return updated;
  }

  async remove(principal: Principal, access: AccessGrant, id: string, ip: string | null): Promise<void> {
    const using = await this.presets.namesUsingProvider(access.teamId, id);
    if (using.length) throw inUse(using);
    let removed: boolean;
    try {
      removed = await this.providers.remove(access.teamId, id);
    } catch (err) {
      // A preset created in between: the foreign key refused.
      if (err instanceof CustomProviderInUse) throw inUse(await this.presets.namesUsingProvider(access.teamId, id));
      throw err;
    }
    if (!removed) throw AppException.notFound('Provider');
    await this.audit.byPrincipal(principal, { action: 'custom_provider.delete', teamId: access.teamId, targetType: 'custom_provider', targetId: id, ip });
  }

  /** The provider's `GET /models`, through the guarded fetch with its key; nothing is saved. */
  async fetchModels(access: AccessGrant, id: string): Promise<DiscoveredModelListDto> {
    const provider = await this.load(access.teamId, id);
    const label = `Provider "${provider.name}"`;
    const unavailable = (why: string) => new AppException(422, 'PROVIDER_MODELS_UNAVAILABLE', `${label}: could not list its models at ${provider.baseUrl}/models (${why}).`);
    const secret = await this.providers.findSecret(access.teamId, id);
    let apiKey: string | null = null;
    try {
      apiKey = secret ? openCustomProviderKey(this.box, access.teamId, id, secret) : null;
    } catch (err) {
      throw unavailable((err as Error).message);
    }
    const fetchGuarded = createGuardedFetch(this.config.env.PROVIDER_ALLOWED_INTERNAL_HOSTS, label);
    let text: string;
    try {
      const res = await fetchGuarded(`${provider.baseUrl}/models`, {
        headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        signal: AbortSignal.timeout(FETCH_MODELS_TIMEOUT_MS),
      });
      if (res.status === 401 || res.status === 403) throw new ProviderModelsError(`HTTP ${res.status}: the key was refused; set the provider's key`);
      if (!res.ok) throw new ProviderModelsError(`HTTP ${res.status}`);
      text = await readCapped(res, FETCH_MODELS_MAX_BYTES);
    } catch (err) {
      throw unavailable(describe(err, apiKey));
    }
    try {
      return { models: parseModelList(JSON.parse(text)) };
    } catch (err) {
      throw unavailable(err instanceof ProviderModelsError ? err.message : 'the answer is not JSON');
    }
  }

  private async load(teamId: string, id: string): Promise<CustomProviderRecord> {
    const provider = await this.providers.findInTeam(teamId, id);
    if (!provider) throw AppException.notFound('Provider');
    return provider;
  }

  private async checkedUrl(raw: string): Promise<string> {
    const allowed = this.config.env.PROVIDER_ALLOWED_INTERNAL_HOSTS;
    try {
      const url = checkProviderBaseUrl(raw, allowed);
      await assertResolvedHostAllowed(url, allowed);
      return url;
    } catch (err) {
      if (err instanceof ProviderUrlError) throw AppException.badRequest('INVALID_PROVIDER_URL', err.message);
      throw err;
    }
  }

  /** A preset's model must stay in its provider's list (a session's may go: its run then says so). */
  private async assertPresetModelsKept(teamId: string, current: CustomProviderRecord, next: ProviderModel[]): Promise<void> {
    const kept = new Set(next.map((m) => m.id));
    const dropped = current.models.filter((m) => !kept.has(m.id)).map((m) => m.id);
    if (!dropped.length) return;
    const presets = await this.presets.listByTeam(teamId);
    const stranded = presets.filter((p) => p.providerId === current.id && dropped.includes(p.model));
    if (stranded.length) {
      throw new AppException(409, 'CONFLICT', `The presets ${stranded.map((p) => `"${p.name}" (${p.model})`).join(', ')} use models this change removes; change or delete them first.`);
    }
  }
}

function inUse(presets: string[]): AppException {
  return new AppException(409, 'CONFLICT', `The provider is used by the presets ${presets.map((n) => `"${n}"`).join(', ')}; change or delete them first.`);
}

function checkedModels(models: readonly ProviderModel[]): ProviderModel[] {
  try {
    return checkProviderModels(models);
  } catch (err) {
    if (err instanceof ProviderModelsError) throw AppException.badRequest('INVALID_PROVIDER_MODELS', err.message);
    throw err;
  }
}

async function readCapped(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new ProviderModelsError(`the answer is larger than ${max / 1024 / 1024} MB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describe(err: unknown, apiKey: string | null): string {
  let text: string;
  if (isModelError(err) || err instanceof ProviderModelsError) text = err.message;
  else if ((err as Error)?.name === 'TimeoutError') text = `no answer within ${FETCH_MODELS_TIMEOUT_MS / 1000} s`;
  else {
    const code = (err as { code?: string })?.code;
    text = code === 'ECONNREFUSED' ? 'connection refused: nothing listens there' : `${(err as Error)?.message ?? String(err)}${code ? ` [${code}]` : ''}`;
  }
  return apiKey && apiKey.length >= 8 ? text.split(apiKey).join('[redacted]') : text;
}
