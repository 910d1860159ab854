import type { AppConfig } from '@h/config';
import type { PresenceEntry, PresenceRepository } from '@h/db';
import { PresenceService } from './presence.service';

/**
 * Redis as the presence repository sees it, in memory, with a way to hold a `list` open: the
 * heartbeat's read of Redis is where a join from the same process can slip in.
 */
class MemoryPresence {
  readonly hash = new Map<string, PresenceEntry>();
  version = 0;
  private gate: Promise<void> | null = null;

  /** The next `list` reads Redis at once but answers only when the returned function is called. */
  holdNextList(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((r) => (release = r));
    return release;
  }

  readonly repo = {
    put: async (_ws: string, entry: PresenceEntry) => {
      this.hash.set(entry.socketId, entry);
      this.version++;
    },
    renew: async (_ws: string, entries: PresenceEntry[]) => {
      for (const e of entries) if (this.hash.has(e.socketId)) this.hash.set(e.socketId, e);
    },
    remove: async (_ws: string, ...ids: string[]) => ids.map((id) => this.hash.delete(id)).some(Boolean),
    list: async () => {
      // Redis answers with what it holds when the command runs, not when the caller resumes.
      const entries = [...this.hash.values()];
      const version = this.version;
      const gate = this.gate;
      this.gate = null;
      if (gate) await gate;
      return { entries, version, pruned: false };
    },
  };
}

describe(PresenceService.name, () => {
  const config = { env: { PRESENCE_TTL_MS: 1500 } } as unknown as AppConfig;
  const who = { userId: 'u1', name: 'Ada' };

  function setUp() {
    const redis = new MemoryPresence();
    const service = new PresenceService(redis.repo as unknown as PresenceRepository, config);
    const emitted: unknown[] = [];
    service.attach({ to: () => ({ emit: (_e: string, s: unknown) => emitted.push(s) }) } as never);
    return { redis, service, emitted };
  }

  it('should put back a socket Redis lost with the file it has now, not the one it had when the heartbeat started', async () => {
    const { redis, service } = setUp();
    await service.join('ws', 's1', who, 'before.ts');
    redis.hash.clear(); // Redis flushed, or the key expired while the process was stalled

    const release = redis.holdNextList();
    const beat = service['beat']();
    // While the heartbeat waits for Redis, the person opens another file.
    await service.join('ws', 's1', who, 'after.ts');
    release();
    await beat;

    expect(redis.hash.get('s1')?.file).toBe('after.ts');
    expect((await service.state('ws')).members).toMatchObject([{ userId: 'u1', file: 'after.ts' }]);
  });

  it('should not bring back a socket that left while the heartbeat read Redis', async () => {
    const { redis, service } = setUp();
    await service.join('ws', 's1', who, 'a.ts');
    redis.hash.clear();

    const release = redis.holdNextList();
    const beat = service['beat']();
    await service.leave('ws', 's1');
    release();
    await beat;

    expect(redis.hash.has('s1')).toBe(false);
  });

  it('should put back and announce a socket Redis lost when nothing else changed', async () => {
    const { redis, service, emitted } = setUp();
    await service.join('ws', 's1', who, 'a.ts');
    redis.hash.clear();
    const before = emitted.length;

    await service['beat']();

    expect(redis.hash.get('s1')?.file).toBe('a.ts');
    await new Promise((r) => setImmediate(r));
    expect(emitted.length).toBeGreaterThan(before);
  });
});
