import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Server } from 'socket.io';
import type { PresenceState, ServerToClientEvents } from '@h/contracts';
import { AppConfig } from '@h/config';
import { PresenceEntry, PresenceRepository } from '@h/db';
import { presenceState } from './presence-state';

export const presenceRoom = (workspaceId: string) => `presence:${workspaceId}`;

/**
 * Presence for this api process: the entries of its own sockets (kept here and in Redis), a
 * heartbeat that renews them every third of PRESENCE_TTL_MS, and the broadcast of the whole state
 * to the workspace's room, which the Redis adapter carries to every api process. The heartbeat
 * also reads each workspace it has sockets in, so an entry left by a process that died expires
 * there and the room is told.
 */
@Injectable()
export class PresenceService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PresenceService.name);
  /** workspaceId -> socketId -> entry, for this process's sockets only. */
  private readonly local = new Map<string, Map<string, PresenceEntry>>();
  /** One broadcast per workspace at a time; a change meanwhile asks for one more. */
  private readonly sending = new Map<string, { again: boolean; done: Promise<void> }>();
  private server: Server | null = null;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly repo: PresenceRepository,
    private readonly config: AppConfig,
  ) {}

  private get ttlMs(): number {
    return this.config.env.PRESENCE_TTL_MS;
  }

  onModuleInit(): void {
    this.heartbeat = setInterval(() => void this.beat(), Math.floor(this.ttlMs / 3));
    this.heartbeat.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    // A process that stops cleanly takes its people out at once rather than after a TTL.
    const all = [...this.local];
    this.local.clear();
    await Promise.all(all.map(([workspaceId, sockets]) => this.repo.remove(workspaceId, ...sockets.keys()).catch(() => undefined)));
  }

  attach(server: Server): void {
    this.server = server;
  }

  async join(workspaceId: string, socketId: string, who: { userId: string; name: string }, file: string | null): Promise<PresenceState> {
    const now = Date.now();
    const existing = this.local.get(workspaceId)?.get(socketId);
    const entry: PresenceEntry = existing
      ? { ...existing, file, activeAt: now, expiresAt: now + this.ttlMs }
      : { socketId, userId: who.userId, name: who.name, file, joinedAt: now, activeAt: now, expiresAt: now + this.ttlMs };
    return this.put(workspaceId, entry);
  }

  /** Null when the socket is not present in the workspace (join first). */
  async update(workspaceId: string, socketId: string, file: string | null): Promise<PresenceState | null> {
    const existing = this.local.get(workspaceId)?.get(socketId);
    if (!existing) return null;
    const now = Date.now();
    return this.put(workspaceId, { ...existing, file, activeAt: now, expiresAt: now + this.ttlMs });
  }

  async leave(workspaceId: string, socketId: string): Promise<void> {
    const sockets = this.local.get(workspaceId);
    if (!sockets?.delete(socketId)) return;
    if (!sockets.size) this.local.delete(workspaceId);
    await this.repo.remove(workspaceId, socketId);
    this.broadcast(workspaceId);
  }

  async state(workspaceId: string): Promise<PresenceState> {
    const { entries, version } = await this.repo.list(workspaceId);
    return presenceState(workspaceId, version, entries);
  }

  private async put(workspaceId: string, entry: PresenceEntry): Promise<PresenceState> {
    let sockets = this.local.get(workspaceId);
    if (!sockets) this.local.set(workspaceId, (sockets = new Map()));
    sockets.set(entry.socketId, entry);
    await this.repo.put(workspaceId, entry, this.ttlMs);
    const state = await this.state(workspaceId);
    this.broadcast(workspaceId);
    return state;
  }

  /** Sends the current state to the room (every api process's sockets in it). */
  broadcast(workspaceId: string): void {
    const running = this.sending.get(workspaceId);
    if (running) {
      running.again = true;
      return;
    }
    const slot = { again: false, done: Promise.resolve() };
    this.sending.set(workspaceId, slot);
    slot.done = (async () => {
      try {
        do {
          slot.again = false;
          const state = await this.state(workspaceId);
          const emit: ServerToClientEvents['presence.state'] = (s) => this.server?.to(presenceRoom(workspaceId)).emit('presence.state', s);
          emit(state);
        } while (slot.again);
      } catch (err) {
        this.logger.warn({ err, workspaceId }, 'presence broadcast failed');
      } finally {
        this.sending.delete(workspaceId);
      }
    })();
  }

  /** Renews this process's entries and drops expired ones everywhere it has people. */
  private async beat(): Promise<void> {
    const now = Date.now();
    for (const [workspaceId, sockets] of this.local) {
      try {
        const renewed = [...sockets.values()].map((e) => ({ ...e, expiresAt: now + this.ttlMs }));
        for (const e of renewed) sockets.set(e.socketId, e);
        await this.repo.renew(workspaceId, renewed, this.ttlMs);
        const { entries, pruned } = await this.repo.list(workspaceId);
        // Lost from Redis (flushed, or expired while this process was stalled): put them back as
        // this process holds them now. A join or file switch may have landed while Redis was
        // read, and the snapshot above would overwrite it with the file the socket had before.
        const missing = renewed.filter((e) => !entries.some((x) => x.socketId === e.socketId));
        let restored = 0;
        for (const { socketId } of missing) {
          const current = sockets.get(socketId);
          if (!current) continue; // it left meanwhile
          await this.repo.put(workspaceId, current, this.ttlMs);
          restored++;
        }
        if (pruned || restored) this.broadcast(workspaceId);
      } catch (err) {
        this.logger.warn({ err, workspaceId }, 'presence heartbeat failed');
      }
    }
  }
}
