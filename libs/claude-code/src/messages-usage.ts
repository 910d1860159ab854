/** What one Messages API answer used, as Anthropic reports it. */
export interface MessagesUsage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

const MAX_JSON_BYTES = 8 * 1024 * 1024;

/**
 * Reads the usage out of an answer as it passes through the gateway: for a stream, the
 * `message_start` event's usage (input and cache figures) and the last `message_delta`'s
 * cumulative output tokens; for a plain answer, its `usage`. It never alters or holds back the
 * bytes; a line longer than the cap is skipped (its usage is not in it).
 */
export class MessagesUsageParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private json = '';
  private found: MessagesUsage | null = null;
  private modelName: string | null = null;

  constructor(private readonly streaming: boolean) {}

  push(chunk: Uint8Array): void {
    const text = this.decoder.decode(chunk, { stream: true });
    if (!this.streaming) {
      if (this.json.length + text.length <= MAX_JSON_BYTES) this.json += text;
      return;
    }
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line.startsWith('data:')) this.event(line.slice(5).trim());
    }
    if (this.buffer.length > MAX_JSON_BYTES) this.buffer = '';
  }

  usage(): MessagesUsage | null {
    if (!this.streaming && this.json) {
      try {
        const body = JSON.parse(this.json) as { model?: string; usage?: Record<string, unknown> };
        if (body.model) this.modelName = body.model;
        if (body.usage) this.found = fromWire(body.usage, null);
      } catch {
        /* not JSON: nothing reported */
      }
      this.json = '';
    }
    return this.found;
  }

  model(): string | null {
    return this.modelName;
  }

  private event(data: string): void {
    let ev: { type?: string; message?: { model?: string; usage?: Record<string, unknown> }; usage?: Record<string, unknown> };
    try {
      ev = JSON.parse(data);
    } catch {
      return;
    }
    if (ev.type === 'message_start' && ev.message?.usage) {
      this.modelName = ev.message.model ?? this.modelName;
      this.found = fromWire(ev.message.usage, null);
    }
    if (ev.type === 'message_delta' && ev.usage) this.found = fromWire(ev.usage, this.found);
  }
}

const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

// message_delta repeats only what changed (output tokens, sometimes the input figures too).
function fromWire(u: Record<string, unknown>, before: MessagesUsage | null): MessagesUsage {
  return {
    inputTokens: n(u.input_tokens) ?? before?.inputTokens ?? 0,
    outputTokens: n(u.output_tokens) ?? before?.outputTokens ?? 0,
    cacheCreationInputTokens: n(u.cache_creation_input_tokens) ?? before?.cacheCreationInputTokens ?? 0,
    cacheReadInputTokens: n(u.cache_read_input_tokens) ?? before?.cacheReadInputTokens ?? 0,
  };
}
