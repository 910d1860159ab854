import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { ModelPresetController } from './model-presets/model-preset.controller';
import { ModelPresetService } from './model-presets/model-preset.service';
import { ProviderController } from './provider.controller';
import { ProviderKeyService } from './provider-key.service';
import { ProviderSecretsModule } from './provider-secrets.module';

@Module({
  imports: [IdentityModule, ProviderSecretsModule],
  controllers: [ProviderController, ModelPresetController],
  providers: [ProviderKeyService, ModelPresetService],
  exports: [ProviderKeyService, ModelPresetService],
})
export class ProvidersModule {}
