import { ToolOutputRepository } from '@h/db';
import { capUtf8, type NewOutput, type OutputStore, type StoredOutput, type StoredOutputRef } from '@h/tools';

/**
 * The worker's output store: one Postgres row per full output, numbered per session. The event
 * log keeps the locator only, so `read_command_output` works in later runs, after a pause for a
 * permission decision and on another worker, and the API serves the same text on demand.
 */
export class SessionOutputStore implements OutputStore {
  constructor(
    private readonly repository: ToolOutputRepository,
    private readonly sessionId: string,
    private readonly runId: string,
    readonly maxBytes: number,
  ) {}

  async add(output: NewOutput): Promise<StoredOutputRef> {
    const capped = capUtf8(output.text, this.maxBytes);
    const ref = await this.repository.create({
      sessionId: this.sessionId,
      runId: this.runId,
      callId: output.callId ?? null,
      label: output.label,
      content: capped.text,
      truncated: capped.truncated || (output.truncated ?? false),
    });
    return { id: ref.number, label: ref.label, bytes: ref.bytes, truncated: ref.truncated };
  }

  async get(id: number): Promise<StoredOutput | undefined> {
    const row = await this.repository.find(this.sessionId, id);
    if (!row) return undefined;
    return { id: row.number, label: row.label, bytes: row.bytes, truncated: row.truncated, text: row.content };
  }
}
