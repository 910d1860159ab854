import { Injectable } from '@nestjs/common';
import { ProviderCredentialRepository } from '@h/db';
import { SecretBoxService } from './secret-box.service';

export const providerKeyAad = (teamId: string, provider: string) => `provider:${teamId}:${provider}`;

/** The worker's only way to a provider key: decrypted in memory for one run, never logged or stored. */
@Injectable()
export class ProviderSecretReader {
  constructor(
    private readonly credentials: ProviderCredentialRepository,
    private readonly box: SecretBoxService,
  ) {}

  async reveal(teamId: string, provider: string): Promise<string | null> {
    const secret = await this.credentials.findSecret(teamId, provider);
    return secret ? this.box.open(secret, providerKeyAad(teamId, provider)) : null;
  }
}
