import { SetMetadata } from '@nestjs/common';
import type { JobName } from './job.registry';

export const JOB_HANDLER_KEY = 'h:job-handler';

/** Marks a provider method as the handler of one job; the worker discovers these at boot. */
export const OnJob = (job: JobName) => SetMetadata(JOB_HANDLER_KEY, job);
