import { Module, OnModuleInit } from '@nestjs/common';
import { AgentSessionRepository } from '@h/db';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { ProviderSecretsModule } from '@h/providers';
import { RunsApiModule } from '@h/runs';
import { EventController } from './event.controller';
import { LiveAccessService } from './realtime/live-access.service';
import { SessionStreamHub } from './realtime/session-stream.hub';
import { SessionGateway } from './realtime/session.gateway';
import { SseStreamService } from './realtime/sse-stream.service';
import { SessionController } from './session.controller';
import { SessionService } from './session.service';
import { ToolOutputController } from './tool-output.controller';

@Module({
  imports: [IdentityModule, RunsApiModule, ProviderSecretsModule],
  controllers: [SessionController, EventController, ToolOutputController],
  providers: [SessionService, SessionStreamHub, SessionGateway, LiveAccessService, SseStreamService],
  exports: [SessionStreamHub, SessionService, SseStreamService],
})
export class SessionsModule implements OnModuleInit {
  constructor(
    private readonly resolvers: ResourceResolverRegistry,
    private readonly sessions: AgentSessionRepository,
  ) {}

  onModuleInit(): void {
    this.resolvers.register('session', (id) => this.sessions.findOwner(id));
  }
}
