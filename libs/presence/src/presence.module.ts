import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { PresenceGateway } from './presence.gateway';
import { PresenceService } from './presence.service';

/** Presence in the api process (the socket server is the one SessionGateway serves). */
@Module({
  imports: [IdentityModule],
  providers: [PresenceService, PresenceGateway],
  exports: [PresenceService],
})
export class PresenceModule {}
