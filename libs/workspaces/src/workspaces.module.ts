import { Module, OnModuleInit } from '@nestjs/common';
import { WorkspaceRepository } from '@h/db';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { WorkspaceController } from './workspace.controller';
import { WorkspaceService } from './workspace.service';

@Module({
  imports: [IdentityModule],
  controllers: [WorkspaceController],
  providers: [WorkspaceService],
  exports: [WorkspaceService],
})
export class WorkspacesModule implements OnModuleInit {
  constructor(
    private readonly resolvers: ResourceResolverRegistry,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  onModuleInit(): void {
    this.resolvers.register('workspace', async (id) => {
      const teamId = await this.workspaces.findTeamId(id);
      return teamId ? { teamId, workspaceId: id } : null;
    });
  }
}
