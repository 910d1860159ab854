import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { CustomProviderController } from './custom-providers/custom-provider.controller';
import { CustomProviderService } from './custom-providers/custom-provider.service';
import { ModelPresetController } from './model-presets/model-preset.controller';
import { ModelPresetService } from './model-presets/model-preset.service';
import { ProviderController } from './provider.controller';
import { ProviderKeyService } from './provider-key.service';
import { ProviderSecretsModule } from './provider-secrets.module';

@Module({
  imports: [IdentityModule, ProviderSecretsModule],
  controllers: [ProviderController, CustomProviderController, ModelPresetController],
  providers: [ProviderKeyService, ModelPresetService, CustomProviderService],
  exports: [ProviderKeyService, ModelPresetService],
})
export class ProvidersModule {}
