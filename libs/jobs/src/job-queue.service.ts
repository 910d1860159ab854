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
    const [id] = await this.enqueueMany(name, [{ payload, jobId: options.jobId }]);
    return id;
  }

  /** Several jobs of one kind in one Redis round trip (BullMQ addBulk): admission enqueues many at once. */
  async enqueueMany<N extends JobName>(name: N, jobs: Array<{ payload: JobPayload<N>; jobId?: string }>): Promise<string[]> {
    if (!jobs.length) return [];
    const defaults = JOB_DEFAULTS[name];
    const opts = {
      attempts: defaults.attempts,
      backoff: { type: 'exponential', delay: defaults.backoffMs },
      removeOnComplete: defaults.keepFinished ? { count: 1000 } : true,
      removeOnFail: defaults.keepFinished ? { count: 5000 } : true,
    };
    const added = await this.queues[JOB_QUEUE[name]].addBulk(
      jobs.map((j) => ({ name, data: parseJobPayload(name, j.payload), opts: { ...opts, jobId: j.jobId } })),
    );
    return added.map((j) => j.id ?? '');
  }

  /** Whether a job with this id is waiting, delayed or active. */
  async isPending(name: JobName, jobId: string): Promise<boolean> {
    const job = await this.queues[JOB_QUEUE[name]].getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    return ['waiting', 'delayed', 'active', 'waiting-children', 'prioritized'].includes(state);
  }
}
