import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { ProviderController } from './provider.controller';
import { ProviderKeyService } from './provider-key.service';
import { ProviderSecretsModule } from './provider-secrets.module';

@Module({
  imports: [IdentityModule, ProviderSecretsModule],
  controllers: [ProviderController],
  providers: [ProviderKeyService],
  exports: [ProviderKeyService],
})
export class ProvidersModule {}
