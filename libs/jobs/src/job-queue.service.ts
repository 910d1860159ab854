import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { JOB_DEFAULTS, JOB_QUEUE, JobName, JobPayload, parseJobPayload, QueueName } from './job.registry';

// The only way code enqueues work: payloads are validated against the registry before they leave.
@Injectable()
export class JobQueueService {
  private readonly queues: Record<QueueName, Queue>;

  constructor(@InjectQueue(QueueName.Workspace) workspaceQueue: Queue) {
    this.queues = { [QueueName.Workspace]: workspaceQueue };
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options: { jobId?: string } = {}): Promise<string> {
    const data = parseJobPayload(name, payload);
    const defaults = JOB_DEFAULTS[name];
    const job = await this.queues[JOB_QUEUE[name]].add(name, data, {
      jobId: options.jobId,
      attempts: defaults.attempts,
      backoff: { type: 'exponential', delay: defaults.backoffMs },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    });
    return job.id ?? '';
  }
}
