import { Injectable } from '@nestjs/common';
import { settingsPlace, type ErrorCode } from '@h/contracts';
import { AppConfig } from '@h/config';
import { CustomProviderRepository } from '@h/db';
import { DeepSeekProvider, OpenAICompatibleProvider, ProviderCache, type ModelInfo, type ModelProvider } from '@h/llm';
import { ProviderSecretReader } from '../provider-secret.reader';
import { SecretBoxService } from '../secret-box.service';
import { openCustomProviderKey } from './custom-provider-secret';
import { createGuardedFetch } from './guarded-fetch';
import { providerModelInfo, unknownProviderModel } from './provider-models';

/** Why a session's provider cannot be used; the run fails with `code` and this message. */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly code: Extract<ErrorCode, 'PROVIDER_KEY_MISSING' | 'PROVIDER_KEY_UNREADABLE' | 'PROVIDER_GONE' | 'UNKNOWN_MODEL'>,
    message: string,
  ) {
    super(message);
  }
}

export interface ResolvedModelProvider {
  provider: ModelProvider;
  /** The model's window and price from the team provider's list; absent for DeepSeek (the catalog's). */
  modelInfo?: ModelInfo;
}

/**
 * The worker's one way to the model of a session: DeepSeek with the team's key, or the team's
 * own provider with its key (if any) behind the guarded fetch, its window and its prices. The key
 * is decrypted in memory for this run only.
 */
@Injectable()
export class ModelProviderResolver {
  /**
   * One provider (its HTTP client and kept-alive connections) per key and endpoint, reused across
   * runs (bench/runs); the key is still read for every run, so a changed key counts at the next run.
   */
  private readonly cache = new ProviderCache();

  constructor(
    private readonly secrets: ProviderSecretReader,
    private readonly providers: CustomProviderRepository,
    private readonly box: SecretBoxService,
    private readonly config: AppConfig,
  ) {}

  async resolve(session: { teamId: string; providerId: string | null; model: string }): Promise<ResolvedModelProvider> {
    if (!session.providerId) return { provider: await this.deepSeek(session.teamId) };
    const custom = await this.providers.findInTeam(session.teamId, session.providerId);
    if (!custom) {
      throw new ProviderUnavailableError('PROVIDER_GONE', 'The provider this session uses was deleted from the team; choose another provider and model for the session.');
    }
    const label = `provider "${custom.name}"`;
    const model = custom.models.find((m) => m.id === session.model);
    if (!model) throw new ProviderUnavailableError('UNKNOWN_MODEL', `${unknownProviderModel(custom.name, session.model, custom.models)} Choose another model for the session.`);
    const secret = await this.providers.findSecret(session.teamId, custom.id);
    let apiKey: string | null = null;
    try {
      apiKey = secret ? openCustomProviderKey(this.box, session.teamId, custom.id, secret) : null;
    } catch (err) {
      throw new ProviderUnavailableError('PROVIDER_KEY_UNREADABLE', `The key of ${label}: ${(err as Error).message}`);
    }
    const info = providerModelInfo(model);
    const cacheKey = JSON.stringify([custom.id, custom.baseUrl, apiKey, info]);
    return {
      modelInfo: info,
      provider: this.cache.get(cacheKey, () => new OpenAICompatibleProvider({
        id: `custom:${custom.id}`,
        displayName: label,
        baseUrl: custom.baseUrl,
        apiKey,
        modelInfo: (id) => (id === info.id ? info : { ...info, id }),
        fetch: createGuardedFetch(this.config.env.PROVIDER_ALLOWED_INTERNAL_HOSTS, label),
        hints: { key: settingsPlace('customProviders', custom.name) },
      })),
    };
  }

  private async deepSeek(teamId: string): Promise<ModelProvider> {
    const apiKey = await this.secrets.reveal(teamId, 'deepseek').catch((err: Error) => {
      throw new ProviderUnavailableError('PROVIDER_KEY_UNREADABLE', err.message);
    });
    if (!apiKey) {
      throw new ProviderUnavailableError('PROVIDER_KEY_MISSING', `No DeepSeek API key is set for this team; a team admin can add one under ${settingsPlace('deepseekKey')}.`);
    }
    return this.cache.get(`deepseek\0${apiKey}`, () => new DeepSeekProvider({ apiKey, baseUrl: this.config.env.DEEPSEEK_BASE_URL }));
  }
}
