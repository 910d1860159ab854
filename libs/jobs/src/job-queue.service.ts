import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { SpanKind, traceCarrier, withSpan } from '@h/telemetry';
import { JOB_DEFAULTS, JOB_QUEUE, JobName, JobPayload, parseJobPayload, QueueName, TRACE_KEY } from './job.registry';

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
    const queue = JOB_QUEUE[name];
    return withSpan(`enqueue ${name}`, { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, 'messaging.batch.message_count': jobs.length }, async () => {
      // The enqueuing span rides along, so the worker's job span continues this trace.
      const trace = traceCarrier();
      const added = await this.queues[queue].addBulk(
        jobs.map((j) => ({ name, data: { ...parseJobPayload(name, j.payload), ...(trace ? { [TRACE_KEY]: trace } : {}) }, opts: { ...opts, jobId: j.jobId } })),
      );
      return added.map((j) => j.id ?? '');
    }, { kind: SpanKind.PRODUCER });
  }

  /** Jobs per state and the oldest waiting job's age, per queue: the api's queue gauges read these at scrape time. */
  async queueStats(): Promise<Array<{ queue: QueueName; counts: Record<string, number>; oldestWaitMs: number }>> {
    return Promise.all(
      Object.values(QueueName).map(async (queue) => {
        const q = this.queues[queue];
        const [counts, oldest] = await Promise.all([q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'), q.getWaiting(0, 0)]);
        const first = oldest[0];
        return { queue, counts, oldestWaitMs: first ? Math.max(0, Date.now() - first.timestamp) : 0 };
      }),
    );
  }

  /** Whether a job with this id is waiting, delayed or active. */
  async isPending(name: JobName, jobId: string): Promise<boolean> {
    const job = await this.queues[JOB_QUEUE[name]].getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    return ['waiting', 'delayed', 'active', 'waiting-children', 'prioritized'].includes(state);
  }
}
