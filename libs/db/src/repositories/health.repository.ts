import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { RedisService } from '../redis.service';

@Injectable()
export class HealthRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
  ) {}

  async pingPostgres(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }

  async pingRedis(): Promise<void> {
    const reply = await this.redis.client.ping();
    if (reply !== 'PONG') throw new Error(`unexpected redis reply ${reply}`);
  }
}
