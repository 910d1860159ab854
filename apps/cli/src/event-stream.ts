import type { EventEnvelope } from '@h/contracts/agent-events';
import type { ApiClient } from './api-client';
import { CliError, EXIT } from './exit-codes';

/** Reconnects this many times in a row before giving up (each after RETRY_MS). */
const MAX_RETRIES = 10;
const RETRY_MS = 1000;

/**
 * A session's persisted events from `after` on, over the API's SSE stream
 * (`GET /api/v1/sessions/:id/events/stream`, `id:` = seq), reconnecting from the last seq when the
 * connection drops (or the server cut a slow reader). Token deltas are skipped: the CLI prints whole
 * messages and tool calls. Ends only when the caller stops iterating.
 */
export async function* sessionEvents(client: ApiClient, sessionId: string, after = 0): AsyncGenerator<EventEnvelope> {
  let last = after;
  let failures = 0;
  for (;;) {
    const abort = new AbortController();
    try {
      const res = await client.request('GET', `/api/v1/sessions/${encodeURIComponent(sessionId)}/events/stream?after=${last}`, undefined, {
        signal: abort.signal,
        headers: { accept: 'text/event-stream' },
      });
      if (!res.body) throw new Error('the event stream has no body');
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!frame || frame.event !== 'message' || !frame.data) continue;
          const event = JSON.parse(frame.data) as EventEnvelope;
          if (event.seq <= last) continue;
          last = event.seq;
          failures = 0;
          yield event;
        }
      }
    } catch (err) {
      // An error the caller should see (auth, a session that is gone) is not retried.
      if (err instanceof CliError && !/Cannot reach/.test(err.message)) throw err;
      if (++failures > MAX_RETRIES) throw err instanceof CliError ? err : new CliError(`The event stream broke: ${(err as Error).message}`, EXIT.unavailable);
    } finally {
      abort.abort();
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

function parseFrame(text: string): { event: string; data: string } | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length || event !== 'message' ? { event, data: data.join('\n') } : null;
}
