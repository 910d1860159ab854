import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '@h/config';

// One shared command connection per process. BullMQ opens its own connections.
@Injectable()
export class RedisService implements OnModuleDestroy {
  readonly client: Redis;
  readonly prefix: string;

  constructor(config: AppConfig) {
    this.client = new Redis(config.env.REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
    this.prefix = config.env.REDIS_PREFIX;
  }

  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
