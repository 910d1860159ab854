import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { AppConfig } from '@h/config';
import { PrismaClient } from './generated/client';

// Prisma 7 runs without a native query engine: the pg driver adapter talks to Postgres directly.
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(config: AppConfig) {
    super({ adapter: new PrismaPg({ connectionString: config.env.DATABASE_URL, max: config.env.DATABASE_POOL_SIZE }) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
