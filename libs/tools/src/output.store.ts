// Full outputs behind distilled or spilled tool results, addressed as `[cmd #N]` and read back
// with read_command_output. Ids are session-wide: the store is rebuilt from `tool.end` events
// (which carry the full text), so ids keep counting up across runs and restarts.

export interface StoredOutput {
  id: number;
  /** e.g. the command line, or "read_file src/big.json" for a spilled result. */
  label: string;
  text: string;
}

export class OutputStore {
  private readonly entries = new Map<number, StoredOutput>();
  private nextId = 1;
  private bytes = 0;

  /** @param maxBytes oldest entries are evicted beyond this (memory bound for long sessions). */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  add(label: string, text: string): number {
    const id = this.nextId;
    this.put({ id, label, text });
    return id;
  }

  /** Re-inserts an entry with its original id (rebuild from events). */
  restore(entry: StoredOutput): void {
    this.put(entry);
  }

  get(id: number): StoredOutput | undefined {
    return this.entries.get(id);
  }

  private put(entry: StoredOutput): void {
    const old = this.entries.get(entry.id);
    if (old) this.bytes -= old.text.length;
    this.entries.set(entry.id, entry);
    this.bytes += entry.text.length;
    this.nextId = Math.max(this.nextId, entry.id + 1);
    for (const [id, e] of this.entries) {
      if (this.bytes <= this.maxBytes || id === entry.id) break;
      this.entries.delete(id);
      this.bytes -= e.text.length;
    }
  }
}
