import { Module, OnModuleInit } from '@nestjs/common';
import { AgentChangeRepository } from '@h/db';
import { FilesModule } from '@h/files';
import { IdentityModule, ResourceResolverRegistry } from '@h/identity';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';

/** The api side of the agent's file changes; it reaches the sandbox through the file API's service. */
@Module({
  imports: [IdentityModule, FilesModule],
  controllers: [ChangesController],
  providers: [ChangesService],
  exports: [ChangesService],
})
export class ChangesModule implements OnModuleInit {
  constructor(
    private readonly resolvers: ResourceResolverRegistry,
    private readonly changes: AgentChangeRepository,
  ) {}

  onModuleInit(): void {
    this.resolvers.register('change', (id) => this.changes.findOwner(id));
  }
}
