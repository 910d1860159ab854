import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig, ConfigModule } from '@h/config';
import { DbModule } from '@h/db';
import { createLogger } from '@h/http';
import { GitRemoteWorkerModule } from '@h/git-remote';
import { JobsModule } from '@h/jobs';
import { RunsModule, RunWorkerModule } from '@h/runs';
import { TelemetryModule } from '@h/telemetry';
import { SandboxLifecycleModule } from '@h/workspaces';
import { ActiveJobs } from './health/active-jobs';
import { WorkerHealthServer } from './health/worker-health.server';
import { JobDispatcher } from './job-dispatcher.service';
import { QUEUE_PROCESSORS } from './queue.processors';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({ pinoHttp: { logger: createLogger(config, 'worker') } }),
        TelemetryModule.forRoot('worker'),
        DiscoveryModule,
        DbModule,
        JobsModule.forRoot(),
        RunsModule,
        RunWorkerModule,
        SandboxLifecycleModule,
        GitRemoteWorkerModule,
      ],
      providers: [JobDispatcher, ActiveJobs, WorkerHealthServer, ...QUEUE_PROCESSORS],
    };
  }
}
