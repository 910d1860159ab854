import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { metrics } from '@h/telemetry';
import { JobQueueService } from './job-queue.service';

/**
 * Feeds the queue gauges (h_queue_jobs, h_queue_oldest_wait_seconds) from BullMQ at scrape time.
 * They are the api's metrics; a worker sets the probe too, but its registry never reads them.
 */
@Injectable()
export class QueueMetrics implements OnModuleInit, OnModuleDestroy {
  constructor(private readonly queues: JobQueueService) {}

  onModuleInit(): void {
    metrics.queueJobs.setProbe(async (gauge) => {
      for (const { queue, counts } of await this.queues.queueStats()) for (const [state, n] of Object.entries(counts)) gauge.set({ queue, state }, n);
    });
    metrics.queueOldestWait.setProbe(async (gauge) => {
      for (const { queue, oldestWaitMs } of await this.queues.queueStats()) gauge.set({ queue }, oldestWaitMs / 1000);
    });
  }

  onModuleDestroy(): void {
    metrics.queueJobs.setProbe(null);
    metrics.queueOldestWait.setProbe(null);
  }
}
