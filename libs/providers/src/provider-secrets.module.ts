import { Module } from '@nestjs/common';
import { MasterKeyService } from './master-key.service';
import { ProviderSecretReader } from './provider-secret.reader';
import { SecretBoxService } from './secret-box.service';

/** Encryption and decryption of provider keys without any HTTP surface (used by the worker). */
@Module({
  providers: [MasterKeyService, SecretBoxService, ProviderSecretReader],
  exports: [MasterKeyService, SecretBoxService, ProviderSecretReader],
})
export class ProviderSecretsModule {}
