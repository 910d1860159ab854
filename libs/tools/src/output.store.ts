// Full outputs behind distilled or spilled tool results, addressed as `[cmd #N]` and read back
// with read_command_output. The event log carries only the preview the model saw plus a locator
// (`outputId` = N, byte length, truncated flag); the full text lives in the store. The worker's
// store is Postgres (one row per output, per session), so ids keep counting up across runs and
// an output stays readable across pauses and worker restarts; MemoryOutputStore serves tests and
// embedded use.

/** Default cap of one stored output (TOOL_OUTPUT_MAX_BYTES): longer text is cut and marked truncated. */
export const DEFAULT_OUTPUT_MAX_BYTES = 10 * 1024 * 1024;

/** The locator the event log keeps. */
export interface StoredOutputRef {
  id: number;
  /** e.g. the command line, or "read_file src/big.json" for a spilled result. */
  label: string;
  /** UTF-8 bytes of the stored text. */
  bytes: number;
  /** The text was longer than the store's cap, or its producer had already cut it. */
  truncated: boolean;
}

export interface StoredOutput extends StoredOutputRef {
  text: string;
}

export interface NewOutput {
  label: string;
  text: string;
  /** The producer already cut the text (e.g. a command's capture cap). */
  truncated?: boolean;
  /** The tool call that produced it, when known. */
  callId?: string;
}

export interface OutputStore {
  /** Largest text kept per output, in bytes. */
  readonly maxBytes: number;
  add(output: NewOutput): Promise<StoredOutputRef>;
  get(id: number): Promise<StoredOutput | undefined>;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function capUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // Fast path: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, truncated: false };
  const buf = Buffer.from(text, 'utf8');
  let end = maxBytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return { text: buf.subarray(0, end).toString('utf8'), truncated: true };
}

export class MemoryOutputStore implements OutputStore {
  private readonly entries = new Map<number, StoredOutput>();
  private nextId = 1;
  private bytes = 0;

  /**
   * @param maxBytes cap of one output
   * @param maxTotalBytes oldest entries are evicted beyond this (memory bound for long sessions)
   */
  constructor(
    readonly maxBytes = DEFAULT_OUTPUT_MAX_BYTES,
    private readonly maxTotalBytes = 64 * 1024 * 1024,
  ) {}

  async add(output: NewOutput): Promise<StoredOutputRef> {
    const capped = capUtf8(output.text, this.maxBytes);
    const entry: StoredOutput = {
      id: this.nextId++,
      label: output.label,
      text: capped.text,
      bytes: Buffer.byteLength(capped.text, 'utf8'),
      truncated: capped.truncated || (output.truncated ?? false),
    };
    this.entries.set(entry.id, entry);
    this.bytes += entry.bytes;
    for (const [id, e] of this.entries) {
      if (this.bytes <= this.maxTotalBytes || id === entry.id) break;
      this.entries.delete(id);
      this.bytes -= e.bytes;
    }
    const { text: _text, ...ref } = entry;
    return ref;
  }

  async get(id: number): Promise<StoredOutput | undefined> {
    return this.entries.get(id);
  }
}
