export * from './job.registry';
export * from './job-handler.decorator';
export * from './job-queue.service';
export * from './jobs.module';
