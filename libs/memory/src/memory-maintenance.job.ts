import { Injectable, Logger } from '@nestjs/common';
import { JobName, JobPayload, OnJob } from '@h/jobs';
import { MemoryService } from './memory.service';

/** After each run (seed: runMemoryMaintenance): merges near-duplicate memories of its user and workspace. */
@Injectable()
export class MemoryMaintenanceJob {
  private readonly logger = new Logger(MemoryMaintenanceJob.name);

  constructor(private readonly memory: MemoryService) {}

  @OnJob(JobName.MemoryMaintenance)
  async maintain(view: JobPayload<JobName.MemoryMaintenance>): Promise<void> {
    const merged = await this.memory.maintain(view);
    if (merged) this.logger.log({ ...view, merged }, 'merged near-duplicate memories');
  }
}
