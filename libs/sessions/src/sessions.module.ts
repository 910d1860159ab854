import { Module, OnModuleInit } from '@nestjs/common';
import { AgentSessionRepository } from '@h/db';
import { FilesModule } from '@h/files';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { RunsApiModule } from '@h/runs';
import { EventController } from './event.controller';
import { LiveAccessService } from './realtime/live-access.service';
import { SessionStreamHub } from './realtime/session-stream.hub';
import { SessionGateway } from './realtime/session.gateway';
import { SessionForkController } from './session-fork.controller';
import { SessionForkService } from './session-fork.service';
import { SessionController } from './session.controller';
import { SessionService } from './session.service';
import { ToolOutputController } from './tool-output.controller';

@Module({
  imports: [IdentityModule, RunsApiModule, FilesModule],
  controllers: [SessionController, EventController, ToolOutputController, SessionForkController],
  providers: [SessionService, SessionStreamHub, SessionGateway, LiveAccessService, SessionForkService],
  exports: [SessionStreamHub],
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
