import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis.service';

export interface RateLimitState {
  count: number;
  retryAfterSeconds: number;
}

// Count and expiry in one script: with INCR and EXPIRE sent apart, a process that died (or a Redis
// call that failed) between them left a counter without expiry, locking the bucket out for good.
const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

// Gives one count back and never leaves a zero or negative counter behind, in one step.
const RELEASE = `
local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n`;

// Fixed-window counters in Redis, so every api replica sees the same attempts.
@Injectable()
export class RateLimitRepository {
  constructor(private readonly redis: RedisService) {}

  async hit(bucket: string, windowSeconds: number): Promise<RateLimitState> {
    const key = this.redis.key('ratelimit', bucket);
    const [count, ttl] = (await this.redis.client.eval(HIT, 1, key, String(windowSeconds))) as [number, number];
    return { count, retryAfterSeconds: ttl };
  }

  async peek(bucket: string): Promise<RateLimitState> {
    const key = this.redis.key('ratelimit', bucket);
    const [count, ttl] = await Promise.all([this.redis.client.get(key), this.redis.client.ttl(key)]);
    return { count: Number(count ?? 0), retryAfterSeconds: Math.max(ttl, 0) };
  }

  /** Gives back one counted attempt (one that turned out fine), never going below zero. */
  async release(bucket: string): Promise<void> {
    await this.redis.client.eval(RELEASE, 1, this.redis.key('ratelimit', bucket));
  }

  async reset(bucket: string): Promise<void> {
    await this.redis.client.del(this.redis.key('ratelimit', bucket));
  }
}
