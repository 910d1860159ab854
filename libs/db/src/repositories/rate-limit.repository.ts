import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis.service';

export interface RateLimitState {
  count: number;
  retryAfterSeconds: number;
}

// Fixed-window counters in Redis, so every api replica sees the same attempts.
@Injectable()
export class RateLimitRepository {
  constructor(private readonly redis: RedisService) {}

  async hit(bucket: string, windowSeconds: number): Promise<RateLimitState> {
    const key = this.redis.key('ratelimit', bucket);
    const [[, count], [, ttl]] = (await this.redis.client
      .multi()
      .incr(key)
      .ttl(key)
      .exec()) as [[null, number], [null, number]];
    if (ttl < 0) await this.redis.client.expire(key, windowSeconds);
    return { count, retryAfterSeconds: ttl < 0 ? windowSeconds : ttl };
  }

  async peek(bucket: string): Promise<RateLimitState> {
    const key = this.redis.key('ratelimit', bucket);
    const [count, ttl] = await Promise.all([this.redis.client.get(key), this.redis.client.ttl(key)]);
    return { count: Number(count ?? 0), retryAfterSeconds: Math.max(ttl, 0) };
  }

  /** Gives back one counted attempt (one that turned out fine), never going below zero. */
  async release(bucket: string): Promise<void> {
    const key = this.redis.key('ratelimit', bucket);
    if ((await this.redis.client.decr(key)) < 0) await this.redis.client.del(key);
  }

  async reset(bucket: string): Promise<void> {
    await this.redis.client.del(this.redis.key('ratelimit', bucket));
  }
}
