import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { MasterKeyService } from './master-key.service';
import { ProviderController } from './provider.controller';
import { ProviderKeyService } from './provider-key.service';
import { SecretBoxService } from './secret-box.service';

@Module({
  imports: [IdentityModule],
  controllers: [ProviderController],
  providers: [MasterKeyService, SecretBoxService, ProviderKeyService],
  exports: [ProviderKeyService, SecretBoxService],
})
export class ProvidersModule {}
