import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { AppConfig } from '@h/config';
import { PrismaClient } from './generated/client';
import { SqlPool } from './sql';

// Prisma 7 runs without a native query engine: the pg driver adapter talks to Postgres directly.
// The adapter gets our pool, so the hot paths' direct SQL (sql.ts) shares its connections and its
// DATABASE_POOL_SIZE bound instead of opening a second pool.
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  /** Direct SQL for the hot paths (sql.ts); repositories only. */
  readonly sql: SqlPool;

  constructor(config: AppConfig) {
    // A statement waits at most 15 s for a free connection (a burst queues on the pool), then fails.
    const pool = new pg.Pool({ connectionString: config.env.DATABASE_URL, max: config.env.DATABASE_POOL_SIZE, connectionTimeoutMillis: 15_000 });
    super({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    this.sql = new SqlPool(pool);
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
