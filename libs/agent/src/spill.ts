// The generic spill policy of the dsh host (seed 003): a tool result above 50,000 UTF-8 bytes is
// kept whole outside the model context and replaced by a bounded head/tail preview plus a
// locator; read_command_output retrieves it. Only the preview is ever resent to the model, and
// only the preview and the locator go into the event log.
import type { OutputStore, StoredOutputRef } from '@h/tools';

export const SPILL_THRESHOLD_BYTES = 50_000;
const HEAD_CHARS = 2_000;
const TAIL_CHARS = 1_000;

export interface Spilled {
  text: string;
  output: StoredOutputRef;
}

/** null when the result is small enough to send as it is. */
/** `readable`: whether read_command_output is offered (the locator names it only then). */
export async function spillIfOversize(
  text: string,
  store: OutputStore,
  label: string,
  options: { threshold?: number; callId?: string; readable?: boolean } = {},
): Promise<Spilled | null> {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= (options.threshold ?? SPILL_THRESHOLD_BYTES)) return null;
  const output = await store.add({ label, text, callId: options.callId });
  const id = output.id;
  const lines = text.split('\n').length;
  const text2 =
    `${text.slice(0, HEAD_CHARS)}\n` +
    `… [${bytes.toLocaleString('en-US')} bytes, ${lines} lines: too large to show. Full text saved as [cmd #${id}]` +
    `${options.readable !== false ? `; read it with read_command_output cmd_id=${id} (offset, limit, filter)` : ''}] …\n` +
    text.slice(-TAIL_CHARS);
  return { text: text2, output };
}
