import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { JOB_DEFAULTS, JOB_QUEUE, JobName, JobPayload, parseJobPayload, QueueName } from './job.registry';

// The only way code enqueues work: payloads are validated against the registry before they leave.
@Injectable()
export class JobQueueService {
  private readonly queues: Record<QueueName, Queue>;

  constructor(@InjectQueue(QueueName.Workspace) workspaceQueue: Queue, @InjectQueue(QueueName.Agent) agentQueue: Queue) {
    this.queues = { [QueueName.Workspace]: workspaceQueue, [QueueName.Agent]: agentQueue };
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options: { jobId?: string } = {}): Promise<string> {
    const data = parseJobPayload(name, payload);
    const defaults = JOB_DEFAULTS[name];
    const job = await this.queues[JOB_QUEUE[name]].add(name, data, {
      jobId: options.jobId,
      attempts: defaults.attempts,
      backoff: { type: 'exponential', delay: defaults.backoffMs },
      removeOnComplete: defaults.keepFinished ? { count: 1000 } : true,
      removeOnFail: defaults.keepFinished ? { count: 5000 } : true,
    });
    return job.id ?? '';
  }

  /** Whether a job with this id is waiting, delayed or active. */
  async isPending(name: JobName, jobId: string): Promise<boolean> {
    const job = await this.queues[JOB_QUEUE[name]].getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    return ['waiting', 'delayed', 'active', 'waiting-children', 'prioritized'].includes(state);
  }
}
