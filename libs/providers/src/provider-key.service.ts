import { Injectable } from '@nestjs/common';
import { ProviderCredentialRepository } from '@h/db';
import { AppException } from '@h/http';
import { AccessGrant, AuditService, Principal } from '@h/identity';
import { SUPPORTED_PROVIDERS, ProviderStatusDto } from './provider.dto';
import { providerKeyAad as aadFor, ProviderSecretReader } from './provider-secret.reader';
import { SecretBoxService } from './secret-box.service';


@Injectable()
export class ProviderKeyService {
  constructor(
    private readonly credentials: ProviderCredentialRepository,
    private readonly box: SecretBoxService,
    private readonly reader: ProviderSecretReader,
    private readonly audit: AuditService,
  ) {}

  assertSupported(provider: string): void {
    if (!(SUPPORTED_PROVIDERS as readonly string[]).includes(provider)) {
      throw new AppException(404, 'UNKNOWN_PROVIDER', `Unknown provider "${provider}"; supported: ${SUPPORTED_PROVIDERS.join(', ')}.`);
    }
  }

  async status(access: AccessGrant, provider: string): Promise<ProviderStatusDto> {
    this.assertSupported(provider);
    const row = await this.credentials.findStatus(access.teamId, provider);
    return { provider, configured: !!row, updatedAt: row?.updatedAt ?? null };
  }

  async set(principal: Principal, access: AccessGrant, provider: string, apiKey: string, ip: string | null): Promise<ProviderStatusDto> {
    this.assertSupported(provider);
    const row = await this.credentials.upsert(access.teamId, provider, this.box.seal(apiKey, aadFor(access.teamId, provider)));
    await this.audit.byPrincipal(principal, { action: 'provider.set', teamId: access.teamId, targetType: 'provider', targetId: provider, ip });
    return { provider, configured: true, updatedAt: row.updatedAt };
  }

  async remove(principal: Principal, access: AccessGrant, provider: string, ip: string | null): Promise<void> {
    this.assertSupported(provider);
    const removed = await this.credentials.remove(access.teamId, provider);
    if (!removed) throw AppException.notFound('Provider key');
    await this.audit.byPrincipal(principal, { action: 'provider.delete', teamId: access.teamId, targetType: 'provider', targetId: provider, ip });
  }

  /** The plaintext key, or null when none is set (for server-side use only, never a response). */
  reveal(teamId: string, provider: string): Promise<string | null> {
    return this.reader.reveal(teamId, provider);
  }
}
