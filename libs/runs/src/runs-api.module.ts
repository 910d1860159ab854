import { Module, OnModuleInit } from '@nestjs/common';
import { PermissionRepository, RunRepository } from '@h/db';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { PermissionController } from './permission.controller';
import { PermissionService } from './permission.service';
import { RunController } from './run.controller';
import { RunService } from './run.service';
import { RunsModule } from './runs.module';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** The api side of runs: posting messages, run and permission routes, team usage. */
@Module({
  imports: [IdentityModule, RunsModule],
  controllers: [RunController, PermissionController, UsageController],
  providers: [RunService, PermissionService, UsageService],
  exports: [RunService, PermissionService],
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
