import { Injectable } from '@nestjs/common';
import { CustomProviderRepository } from '@h/db';
import { AppException } from '@h/http';
import { unknownModelReason } from '@h/llm';
import { unknownProviderModel } from './provider-models';

/**
 * The check sessions and presets share: a model comes from the instance catalog (DeepSeek,
 * `providerId` null) or from the list of one of the team's own providers. Another team's provider
 * id reads as missing (404 UNKNOWN_PROVIDER); a model outside the list is 400 UNKNOWN_MODEL
 * naming the known ones.
 */
@Injectable()
export class ModelSelectionService {
  constructor(private readonly providers: CustomProviderRepository) {}

  /** The model to use: `model`, or the provider's first one when a custom provider is named without one. */
  async check(teamId: string, providerId: string | null, model: string | undefined): Promise<string | undefined> {
    if (!providerId) {
      const unknown = model === undefined ? null : unknownModelReason(model);
      if (unknown) throw AppException.badRequest('UNKNOWN_MODEL', unknown);
      return model;
    }
    const provider = await this.providers.findInTeam(teamId, providerId);
    if (!provider) throw new AppException(404, 'UNKNOWN_PROVIDER', 'The team has no provider with this id; list them at GET /api/v1/teams/:teamId/providers.');
    const chosen = model ?? provider.models[0]?.id;
    if (!chosen || !provider.models.some((m) => m.id === chosen)) {
      throw AppException.badRequest('UNKNOWN_MODEL', unknownProviderModel(provider.name, chosen ?? '(none)', provider.models));
    }
    return chosen;
  }
}
