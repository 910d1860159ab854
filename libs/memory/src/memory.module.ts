import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { MemoryController } from './memory.controller';
import { MemoryMaintenanceJob } from './memory-maintenance.job';
import { MemoryService } from './memory.service';

/** The api side: the Memory settings page's routes. */
@Module({
  imports: [IdentityModule],
  controllers: [MemoryController],
  providers: [MemoryService],
})
export class MemoryApiModule {}

/** The worker side: the service runs use (tools, selection, capture, profile) and the maintenance job. */
@Module({
  providers: [MemoryService, MemoryMaintenanceJob],
  exports: [MemoryService],
})
export class MemoryWorkerModule {}
