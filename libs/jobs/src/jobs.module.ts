import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { QueueName } from './job.registry';
import { JobQueueService } from './job-queue.service';
import { QueueMetrics } from './queue-metrics';

function redisConnection(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    // BullMQ workers need blocking commands to wait forever.
    maxRetriesPerRequest: null,
  };
}

@Module({})
export class JobsModule {
  static forRoot(): DynamicModule {
    const queues = Object.values(QueueName).map((name) => BullModule.registerQueue({ name }));
    return {
      module: JobsModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({ connection: redisConnection(config.env.REDIS_URL), prefix: `${config.env.REDIS_PREFIX}:bull` }),
        }),
        ...queues,
      ],
      providers: [JobQueueService, QueueMetrics],
      exports: [JobQueueService, ...queues],
    };
  }
}
