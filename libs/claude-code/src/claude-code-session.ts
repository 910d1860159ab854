import type { AgentEvent } from '@h/contracts';
import type { SandboxProcess } from '@h/sandbox';
import { toolCategory } from './claude-tools';

/** A `can_use_tool` control request of Claude Code: it waits until H answers it. */
export interface ClaudeToolRequest {
  requestId: string;
  toolName: string;
  input: Record<string, unknown>;
  /** The tool_use block it is about (the event log's toolCallId). */
  toolUseId: string;
}

export type ClaudeDecision = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message?: string };

export interface ClaudeCodeDriveOptions {
  process: SandboxProcess;
  /** The user's message for this turn. */
  prompt: string;
  /** Every event for the log, in order; awaited, so persistence keeps order. */
  onEvent(event: AgentEvent): Promise<void>;
  /** H's answer to one permission request (may wait for a person); aborted when Claude Code withdraws it. */
  decide(request: ClaudeToolRequest, signal: AbortSignal): Promise<ClaudeDecision>;
  signal: AbortSignal;
  /** Longest stdout line accepted (default 16 MiB); a longer one ends the run as failed. */
  maxLineBytes?: number;
}

export interface ClaudeCodeOutcome {
  status: 'done' | 'failed' | 'cancelled';
  reply: string | null;
  /** Claude Code's own session id (for --resume on the next turn). */
  sessionId: string | null;
  error?: { code: string; message: string };
}

type Json = Record<string, any>;

const STDERR_TAIL = 2000;

/**
 * Drives one Claude Code turn over its stream-json stdio protocol (what h2c does, seed 002): sends
 * the prompt as a `user` line, maps what comes back onto H's events (text deltas, whole assistant
 * messages, tool.start / tool.end pairs), answers each `can_use_tool` control request with H's
 * decision, and ends at the `result` line (stdin closed, the process exits). Cancelling kills the
 * process and its children. Everything read from the sandbox is untrusted data: lines are capped,
 * unknown messages are ignored, control requests other than can_use_tool get an error answer.
 */
export async function driveClaudeCode(o: ClaudeCodeDriveOptions): Promise<ClaudeCodeOutcome> {
  const started = new Map<string, { name: string; at: number }>();
  const pending = new Map<string, AbortController>();
  let sessionId: string | null = null;
  let outcome: ClaudeCodeOutcome | null = null;
  let stderr = '';
  o.process.stderr.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString('utf8')).slice(-STDERR_TAIL);
  });
  const send = (message: Json): void => {
    if (!o.process.stdin.writableEnded) o.process.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const onAbort = (): void => void o.process.kill();
  o.signal.addEventListener('abort', onAbort, { once: true });

  // Events are handled one after another (their order is the log's), while permission requests
  // wait for their decisions concurrently.
  let chain: Promise<void> = Promise.resolve();
  const handle = async (m: Json): Promise<void> => {
    switch (m.type) {
      case 'system':
        if (m.subtype === 'init' && typeof m.session_id === 'string') sessionId = m.session_id;
        return;
      case 'stream_event': {
        const d = m.event?.type === 'content_block_delta' ? m.event.delta : null;
        if (d?.type === 'text_delta' && typeof d.text === 'string' && !m.parent_tool_use_id) await o.onEvent({ type: 'text.delta', data: { delta: d.text } });
        if (d?.type === 'thinking_delta' && typeof d.thinking === 'string' && !m.parent_tool_use_id) await o.onEvent({ type: 'thinking.delta', data: { delta: d.thinking } });
        return;
      }
      case 'assistant':
        return assistant(m);
      case 'user':
        return toolResults(m);
      case 'control_request':
        return control(m);
      case 'control_cancel_request':
        pending.get(String(m.request_id))?.abort();
        return;
      case 'result':
        outcome = resultOutcome(m, sessionId);
        o.process.stdin.end();
        return;
      default:
    }
  };

  const assistant = async (m: Json): Promise<void> => {
    const blocks: Json[] = Array.isArray(m.message?.content) ? m.message.content : [];
    const text = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string).join('');
    const calls = blocks
      .filter((b) => b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
      .map((b) => ({ id: b.id as string, name: b.name as string, arguments: JSON.stringify(b.input ?? {}) }));
    if (!text && !calls.length) return;
    await o.onEvent({
      type: 'message.assistant',
      data: { content: text || null, ...(calls.length ? { toolCalls: calls } : {}), finishReason: typeof m.message?.stop_reason === 'string' ? m.message.stop_reason : null },
    });
    for (const c of calls) {
      started.set(c.id, { name: c.name, at: Date.now() });
      await o.onEvent({ type: 'tool.start', data: { toolCallId: c.id, name: c.name, arguments: c.arguments, category: toolCategory(c.name) } });
    }
  };

  const toolResults = async (m: Json): Promise<void> => {
    const blocks: Json[] = Array.isArray(m.message?.content) ? m.message.content : [];
    for (const b of blocks) {
      if (b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
      const call = started.get(b.tool_use_id);
      if (!call) continue; // a result for a call this run never saw start (e.g. a sub-agent's)
      started.delete(b.tool_use_id);
      await o.onEvent({
        type: 'tool.end',
        data: { toolCallId: b.tool_use_id, name: call.name, result: resultText(b.content), isError: b.is_error === true, durationMs: Date.now() - call.at },
      });
    }
  };

  const control = async (m: Json): Promise<void> => {
    const requestId = String(m.request_id ?? '');
    const req = m.request ?? {};
    if (req.subtype !== 'can_use_tool') {
      send({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error: `H does not answer ${String(req.subtype)} requests` } });
      return;
    }
    const input = req.input && typeof req.input === 'object' && !Array.isArray(req.input) ? (req.input as Record<string, unknown>) : {};
    const abort = new AbortController();
    pending.set(requestId, abort);
    const request: ClaudeToolRequest = { requestId, toolName: String(req.tool_name ?? ''), input, toolUseId: String(req.tool_use_id ?? requestId) };
    // Not awaited on the chain: other messages (and other requests) go on while a person decides.
    void o
      .decide(request, abort.signal)
      .then((d) => {
        const response = d.behavior === 'allow' ? { behavior: 'allow', updatedInput: d.updatedInput ?? input } : { behavior: 'deny', message: d.message ?? 'Denied in H.' };
        if (!abort.signal.aborted) send({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
      })
      .catch((err: Error) => {
        if (!abort.signal.aborted && !o.signal.aborted) {
          send({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response: { behavior: 'deny', message: `H could not decide: ${err.message}` } } });
        }
      })
      .finally(() => pending.delete(requestId));
  };

  let lineFailure: string | null = null;
  const lines = readLines(o.process.stdout, o.maxLineBytes ?? 16 * 1024 * 1024, (line) => {
    let m: Json;
    try {
      m = JSON.parse(line);
    } catch {
      return; // not protocol (a stray print): ignored
    }
    if (!m || typeof m !== 'object') return;
    chain = chain.then(() => handle(m));
  }, (why) => {
    lineFailure = why;
    void o.process.kill();
  });

  send({ type: 'user', message: { role: 'user', content: o.prompt }, parent_tool_use_id: null, session_id: sessionId ?? '' });
  const code = await o.process.exited;
  await lines;
  await chain;
  o.signal.removeEventListener('abort', onAbort);
  for (const a of pending.values()) a.abort();
  if (o.signal.aborted) return { status: 'cancelled', reply: null, sessionId };
  if (lineFailure) return { status: 'failed', reply: null, sessionId, error: { code: 'claude_code_protocol', message: lineFailure } };
  if (outcome) return outcome;
  const tail = stderr.trim().split('\n').slice(-5).join('\n');
  return {
    status: 'failed',
    reply: null,
    sessionId,
    error: { code: 'claude_code_exited', message: `Claude Code exited (code ${code ?? 'unknown'}) before it finished the turn${tail ? `: ${tail}` : '.'}` },
  };
}

function resultOutcome(m: Json, sessionId: string | null): ClaudeCodeOutcome {
  const reply = typeof m.result === 'string' ? m.result : null;
  if (m.subtype === 'success' && m.is_error !== true) return { status: 'done', reply, sessionId: m.session_id ?? sessionId };
  const errors = Array.isArray(m.errors) ? m.errors.filter((e: unknown) => typeof e === 'string').join('; ') : '';
  return {
    status: 'failed',
    reply,
    sessionId: m.session_id ?? sessionId,
    error: { code: 'claude_code_error', message: `Claude Code ended the turn with ${String(m.subtype ?? 'an error')}${errors || reply ? `: ${errors || reply}` : ''}`.slice(0, 2000) },
  };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (c?.type === 'text' && typeof c.text === 'string' ? c.text : c?.type === 'image' ? '[image]' : '')).join('\n');
  return '';
}

/** Splits a stream into lines without holding more than `max` bytes of one line. */
function readLines(stream: NodeJS.ReadableStream, max: number, onLine: (line: string) => void, onTooLong: (why: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let buf = '';
    stream.setEncoding?.('utf8');
    stream.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) onLine(line);
      }
      if (buf.length > max) {
        buf = '';
        onTooLong(`Claude Code sent a line longer than ${max} bytes; the run was stopped.`);
      }
    });
    stream.on('end', () => {
      if (buf.trim()) onLine(buf);
      resolve();
    });
    stream.on('close', () => resolve());
    stream.on('error', () => resolve());
  });
}
