import { Module } from '@nestjs/common';
import { MasterKeyService } from './master-key.service';
import { ModelProviderResolver } from './custom-providers/model-provider.resolver';
import { ModelSelectionService } from './custom-providers/model-selection.service';
import { ProviderSecretReader } from './provider-secret.reader';
import { SecretBoxService } from './secret-box.service';

/**
 * Provider keys (sealed, opened) and the choice of provider and model, without any HTTP surface:
 * the worker resolves a session's provider here, sessions and presets check a choice here.
 */
@Module({
  providers: [MasterKeyService, SecretBoxService, ProviderSecretReader, ModelProviderResolver, ModelSelectionService],
  exports: [MasterKeyService, SecretBoxService, ProviderSecretReader, ModelProviderResolver, ModelSelectionService],
})
export class ProviderSecretsModule {}
