import type Docker from 'dockerode';
import type { SandboxClient } from './sandbox-client';
import type { SandboxRecord } from './sandbox-driver';

export interface WarmEntry {
  record: SandboxRecord;
  client: SandboxClient;
}

export interface WarmPoolDeps {
  docker: Docker;
  /** Containers kept ready (0 = no pool). */
  size: number;
  /** A record for a new warm container (fresh pool name and volume). */
  newRecord(): SandboxRecord;
  /** Creates (not starts) the container, labelled as a pool container. */
  create(record: SandboxRecord): Promise<void>;
  /** Connects and waits for health, without registering the client under the temporary name. */
  openClient(name: string): Promise<SandboxClient>;
  /** Removes a never-claimed container (and its volume while it is still the pool's). */
  discard(record: SandboxRecord, client?: SandboxClient): Promise<void>;
  removeVolume(name: string): Promise<void>;
}

/**
 * Pre-started containers with the driver's defaults, so a new workspace's first run does not wait
 * for a container. A claim renames one to the workspace's name (labels are immutable); the pool
 * then tops itself up in the background.
 */
export class WarmPool {
  private readonly entries: WarmEntry[] = [];
  private filling: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly deps: WarmPoolDeps) {}

  get count(): number {
    return this.entries.length;
  }

  /** Whether a leftover warm container found at reconcile is worth adopting. */
  get wantsMore(): boolean {
    return this.entries.length < this.deps.size;
  }

  adopt(entry: WarmEntry): void {
    this.entries.push(entry);
  }

  /** The next live warm container, renamed to `name`; null when none is left. */
  async claim(name: string): Promise<WarmEntry | null> {
    let entry: WarmEntry | undefined;
    while ((entry = this.entries.shift())) {
      if (entry.client.closed) {
        void this.deps.discard(entry.record, entry.client);
        continue;
      }
      try {
        // Labels are immutable, so the claim is the rename: the container's name now says whose it
        // is, and the caller records the pool volume as the workspace's volume.
        await this.deps.docker.getContainer(entry.record.name).rename({ name });
      } catch {
        void this.deps.discard(entry.record, entry.client);
        continue;
      }
      return entry;
    }
    return null;
  }

  /** Tops the pool up to its size; resolves when it is full. */
  fill(): Promise<void> {
    if (this.filling) return this.filling;
    this.filling = (async () => {
      while (!this.closed && this.entries.length < this.deps.size) {
        const record = this.deps.newRecord();
        try {
          await this.deps.create(record);
          await this.deps.docker.getContainer(record.name).start();
          const client = await this.deps.openClient(record.name);
          if (this.closed) {
            client.close();
            await this.deps.discard(record);
            break;
          }
          this.entries.push({ record, client });
        } catch {
          await this.deps.discard(record);
          await this.deps.removeVolume(record.volume).catch(() => undefined);
          break; // engine trouble: retry on the next claim rather than spin
        }
      }
    })().finally(() => (this.filling = null));
    return this.filling;
  }

  /** Stops filling and removes every warm container. */
  async close(): Promise<void> {
    this.closed = true;
    await this.filling;
    const warm = this.entries.splice(0);
    await Promise.all(warm.map((w) => this.deps.discard(w.record, w.client)));
  }
}
