import { Module, OnModuleInit } from '@nestjs/common';
import { AgentSessionRepository, PermissionRepository, RunRepository } from '@h/db';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { RunsModule } from '@h/runs';
import { EventController } from './event.controller';
import { PermissionController } from './permission.controller';
import { PermissionService } from './permission.service';
import { LiveAccessService } from './realtime/live-access.service';
import { SessionStreamHub } from './realtime/session-stream.hub';
import { SessionGateway } from './realtime/session.gateway';
import { RunService } from './run.service';
import { SessionController } from './session.controller';
import { SessionService } from './session.service';
import { ToolOutputController } from './tool-output.controller';
import { UsageService } from './usage.service';

@Module({
  imports: [IdentityModule, RunsModule],
  controllers: [SessionController, EventController, PermissionController, ToolOutputController],
  providers: [SessionService, RunService, PermissionService, UsageService, SessionStreamHub, SessionGateway, LiveAccessService],
  exports: [SessionStreamHub],
})
export class SessionsModule implements OnModuleInit {
  constructor(
    private readonly resolvers: ResourceResolverRegistry,
    private readonly sessions: AgentSessionRepository,
    private readonly runs: RunRepository,
    private readonly permissions: PermissionRepository,
  ) {}

  onModuleInit(): void {
    this.resolvers.register('session', (id) => this.sessions.findOwner(id));
    this.resolvers.register('run', (id) => this.runs.findOwner(id));
    this.resolvers.register('permission', (id) => this.permissions.findOwner(id));
  }
}
