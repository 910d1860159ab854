import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis.service';

/** One socket in one workspace, as every api process sees it. */
export interface PresenceEntry {
  socketId: string;
  userId: string;
  name: string;
  file: string | null;
  /** ms since the epoch: when this socket joined. */
  joinedAt: number;
  /** ms since the epoch: when this socket last announced its file. */
  activeAt: number;
  /** ms since the epoch: the entry counts as gone after this unless renewed. */
  expiresAt: number;
}

// Renews only entries that still exist: a renewal racing a leave must not bring the entry back.
const RENEW = `
local n = 0
for i = 1, #ARGV - 1, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    n = n + 1
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[#ARGV])
return n`;

/**
 * Presence in Redis: one hash per workspace, a field per socket holding its entry with its own
 * expiry (Redis 7.0 has no per-field TTL). Each api process renews its own sockets' entries on a
 * heartbeat; readers skip and delete expired ones, so the sockets of a process that died without
 * saying goodbye drop out within one TTL. The hash itself expires when nobody renews anything.
 */
@Injectable()
export class PresenceRepository {
  constructor(private readonly redis: RedisService) {}

  private key(workspaceId: string): string {
    return this.redis.key('presence', workspaceId);
  }

  /** Bumped by every change, read together with the entries: the state's `version`. */
  private versionKey(workspaceId: string): string {
    return this.redis.key('presence-version', workspaceId);
  }

  async put(workspaceId: string, entry: PresenceEntry, ttlMs: number): Promise<void> {
    const { socketId, ...rest } = entry;
    await this.redis.client
      .multi()
      .hset(this.key(workspaceId), socketId, JSON.stringify(rest))
      .pexpire(this.key(workspaceId), ttlMs * 2)
      .incr(this.versionKey(workspaceId))
      .exec();
  }

  /** Pushes the expiry of these (still present) entries forward. */
  async renew(workspaceId: string, entries: PresenceEntry[], ttlMs: number): Promise<void> {
    if (!entries.length) return;
    const args = entries.flatMap(({ socketId, ...rest }) => [socketId, JSON.stringify(rest)]);
    await this.redis.client.eval(RENEW, 1, this.key(workspaceId), ...args, String(ttlMs * 2));
  }

  async remove(workspaceId: string, ...socketIds: string[]): Promise<boolean> {
    if (!socketIds.length) return false;
    const result = await this.redis.client.multi().hdel(this.key(workspaceId), ...socketIds).incr(this.versionKey(workspaceId)).exec();
    return Number(result?.[0]?.[1] ?? 0) > 0;
  }

  /**
   * The live entries and the version they belong to. Expired entries are deleted (and the
   * version bumped) on the way: `pruned` says so, and the caller tells the room.
   */
  async list(workspaceId: string, now = Date.now()): Promise<{ entries: PresenceEntry[]; version: number; pruned: boolean }> {
    const result = await this.redis.client.multi().hgetall(this.key(workspaceId)).get(this.versionKey(workspaceId)).exec();
    const raw = (result?.[0]?.[1] ?? {}) as Record<string, string>;
    const version = Number(result?.[1]?.[1] ?? 0);
    const entries: PresenceEntry[] = [];
    const expired: string[] = [];
    for (const [socketId, text] of Object.entries(raw)) {
      const entry = parse(socketId, text);
      if (!entry || entry.expiresAt <= now) expired.push(socketId);
      else entries.push(entry);
    }
    if (expired.length) {
      // Read again after the delete, so the entries and the bumped version belong together.
      await this.remove(workspaceId, ...expired);
      return { ...(await this.list(workspaceId, now)), pruned: true };
    }
    return { entries, version, pruned: false };
  }
}

function parse(socketId: string, text: string): PresenceEntry | null {
  try {
    const v = JSON.parse(text) as Omit<PresenceEntry, 'socketId'>;
    if (typeof v?.userId !== 'string' || typeof v.expiresAt !== 'number') return null;
    return { socketId, userId: v.userId, name: String(v.name ?? ''), file: typeof v.file === 'string' ? v.file : null, joinedAt: Number(v.joinedAt), activeAt: Number(v.activeAt), expiresAt: v.expiresAt };
  } catch {
    return null;
  }
}
