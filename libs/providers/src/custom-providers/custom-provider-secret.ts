import type { EncryptedSecret } from '@h/db';
import { SecretBoxService } from '../secret-box.service';

/** Binds a custom provider's sealed key to its team and id: a row copied elsewhere does not open. */
export const customProviderKeyAad = (teamId: string, providerId: string) => `provider:${teamId}:custom:${providerId}`;

export function sealCustomProviderKey(box: SecretBoxService, teamId: string, providerId: string, apiKey: string): EncryptedSecret {
  return box.seal(apiKey, customProviderKeyAad(teamId, providerId));
}

export function openCustomProviderKey(box: SecretBoxService, teamId: string, providerId: string, secret: EncryptedSecret): string {
  return box.open(secret, customProviderKeyAad(teamId, providerId));
}
