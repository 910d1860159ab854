import { Module, OnModuleInit } from '@nestjs/common';
import { PermissionRepository, RunRepository } from '@h/db';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { ProviderSecretsModule } from '@h/providers';
import { BotRunController } from './bot-run.controller';
import { BotRunService } from './bot-run.service';
import { PermissionController } from './permission.controller';
import { PermissionService } from './permission.service';
import { RunController } from './run.controller';
import { RunResultService } from './run-result.service';
import { RunService } from './run.service';
import { RunsModule } from './runs.module';
import { SessionFactory } from './session-factory.service';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** The api side of runs: posting messages, the bot API, run and permission routes, team usage. */
@Module({
  imports: [IdentityModule, RunsModule, ProviderSecretsModule],
  controllers: [RunController, BotRunController, PermissionController, UsageController],
  providers: [RunService, PermissionService, UsageService, SessionFactory, BotRunService, RunResultService],
  exports: [RunService, PermissionService, SessionFactory, RunResultService],
})
export class RunsApiModule implements OnModuleInit {
  constructor(
    private readonly resolvers: ResourceResolverRegistry,
    private readonly runs: RunRepository,
    private readonly permissions: PermissionRepository,
  ) {}

  onModuleInit(): void {
    this.resolvers.register('run', (id) => this.runs.findOwner(id));
    this.resolvers.register('permission', (id) => this.permissions.findOwner(id));
  }
}
