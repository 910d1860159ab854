import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, envValue } from '@h/config';
import type { Job } from 'bullmq';
import { JobName, QueueName, TRACE_KEY } from '@h/jobs';
import { RunDispatcher } from '@h/runs';
import { contextFromCarrier, metrics, SpanKind, withLogContext, withSpan } from '@h/telemetry';
import { ActiveJobs } from './health/active-jobs';
import { JobDispatcher } from './job-dispatcher.service';

// One BullMQ processor per queue; each hands jobs to the dispatcher by name.
abstract class DispatchingProcessor extends WorkerHost implements OnApplicationBootstrap {
  protected abstract readonly logger: Logger;

  constructor(
    private readonly dispatcher: JobDispatcher,
    private readonly config: AppConfig,
    private readonly jobs: ActiveJobs,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.env.WORKER_CONCURRENCY;
  }

  async process(job: Job): Promise<void> {
    const started = Date.now();
    const data = (job.data ?? {}) as { runId?: unknown; [TRACE_KEY]?: unknown };
    const runId = typeof data.runId === 'string' ? data.runId : undefined;
    metrics.jobWait.observe({ queue: job.queueName, job: job.name }, Math.max(0, (job.processedOn ?? started) - job.timestamp) / 1000);
    // The enqueuer's span (carried in the job data, see JobQueueService) is this job's parent, and
    // every log line of the job carries its ids.
    const parent = contextFromCarrier(data[TRACE_KEY]);
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': job.queueName, 'h.job': job.name, ...(runId ? { 'h.run_id': runId } : {}) };
    await withLogContext({ jobId: job.id, job: job.name, ...(runId ? { runId } : {}) }, () =>
      withSpan(`job ${job.name}`, attributes, async () => {
        try {
          await this.jobs.track(() => this.dispatcher.dispatch(job.name, job.data));
          metrics.jobsProcessed.inc({ queue: job.queueName, job: job.name, outcome: 'ok' });
          this.logger.log({ ms: Date.now() - started }, 'job done');
        } catch (err) {
          metrics.jobsProcessed.inc({ queue: job.queueName, job: job.name, outcome: 'error' });
          this.logger.error({ attempt: job.attemptsMade + 1, err }, 'job failed');
          throw err;
        }
      }, { kind: SpanKind.CONSUMER, parent }),
    );
  }
}

@Processor(QueueName.Workspace)
export class WorkspaceQueueProcessor extends DispatchingProcessor {
  protected readonly logger = new Logger(WorkspaceQueueProcessor.name);

  // Nest reads constructor types from the concrete class, so each processor declares its own.
  constructor(dispatcher: JobDispatcher, config: AppConfig, jobs: ActiveJobs) {
    super(dispatcher, config, jobs);
  }
}

// Worker options are fixed when BullMQ creates the worker, before the config service exists, so
// the lock is read here through the env schema's own entry (same checks and default). A killed
// worker's run is detected as stalled after about this long and resumes on another worker.
const runLockMs = envValue('RUN_LOCK_MS');

@Processor(QueueName.Agent, { lockDuration: runLockMs, stalledInterval: Math.max(1000, Math.floor(runLockMs / 2)), maxStalledCount: 10 })
export class AgentQueueProcessor extends DispatchingProcessor {
  protected readonly logger = new Logger(AgentQueueProcessor.name);

  constructor(
    dispatcher: JobDispatcher,
    config: AppConfig,
    jobs: ActiveJobs,
    private readonly runs: RunDispatcher,
  ) {
    super(dispatcher, config, jobs);
  }

  // Runs after BullMQ removed the finished job, so a run re-admitted meanwhile can get its job now.
  @OnWorkerEvent('completed')
  onCompleted(job: Job): void {
    this.afterRunJob(job);
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined): void {
    if (job) this.afterRunJob(job);
  }

  private afterRunJob(job: Job): void {
    if (job.name !== JobName.AgentRun) return;
    const runId = (job.data as { runId?: string }).runId;
    if (!runId) return;
    this.runs.afterJob(runId).catch((err) => this.logger.error({ runId, err }, 'could not enqueue the re-admitted run'));
  }
}

export const QUEUE_PROCESSORS = [WorkspaceQueueProcessor, AgentQueueProcessor];
