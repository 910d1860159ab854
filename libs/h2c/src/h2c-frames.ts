// What h2c's task stream says for each event of H's log. The stream is rebuilt from the log
// (replay from the start, then live), so a reconnect loses nothing and repeats nothing the log
// does not: text comes as one `chunk` per whole assistant message (token deltas are not persisted,
// so they are left out rather than sent live and then missing from a replay).
import type { EventEnvelope, H2cStreamFrame, H2cTask, H2cTaskStatus, H2cUsage, RunStatus, Usage } from '@h/contracts';

export const EXIT_CODES = { done: 0, failed: 1, cancelled: 130 } as const;

export function h2cStatus(status: RunStatus): H2cTaskStatus {
  switch (status) {
    case 'queued':
      return 'queued';
    case 'completed':
      return 'done';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    // Waiting for a decision is still running for h2c: its session is blocked on the permission.
    default:
      return 'running';
  }
}

export function h2cExitCode(status: H2cTaskStatus): number | null {
  return status === 'done' || status === 'failed' || status === 'cancelled' ? EXIT_CODES[status] : null;
}

/** H's usage as h2c (Claude Code) counts it: input excludes what the provider cache served. */
export function h2cUsage(usage: Usage): H2cUsage {
  return {
    total_cost_usd: usage.costUsd,
    input_tokens: usage.cacheMissTokens,
    output_tokens: usage.completionTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cacheHitTokens,
  };
}

/** The task's answer once it ended: the final reply, else the summary; a failure's message. */
export function h2cResult(terminal: EventEnvelope | null): string | null {
  if (!terminal) return null;
  const data = terminal.data as { reply?: string | null; summary?: string | null; message?: string };
  if (terminal.type === 'run.done') return data.reply ?? data.summary ?? '';
  if (terminal.type === 'run.failed') return data.message ?? null;
  return null;
}

export function h2cTask(id: string, run: { status: RunStatus; usage: Usage }, terminal: EventEnvelope | null, position: number | null): H2cTask {
  const status = h2cStatus(run.status);
  return { id, status, result: h2cResult(terminal), exitCode: h2cExitCode(status), usage: h2cUsage(run.usage), queue_position: position };
}

export const TERMINAL_EVENTS = ['run.done', 'run.failed', 'run.cancelled'];

/** The frames one event of the task's run becomes (none for most); the last event ends the stream. */
export function framesOf(taskId: string, e: EventEnvelope): H2cStreamFrame[] {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'message.assistant':
      return typeof d.content === 'string' && d.content ? [{ type: 'chunk', text: d.content }] : [];
    case 'permission.requested':
      return [
        {
          type: 'permission_request',
          task_id: taskId,
          request_id: String(d.permissionId),
          tool_name: String(d.toolName),
          input: d.input ?? {},
          tool_use_id: String(d.toolCallId),
        },
      ];
    case 'tool.start':
      return [{ type: 'tool_progress', task_id: taskId, tool_use_id: String(d.toolCallId), tool_name: String(d.name), phase: 'started' }];
    case 'tool.end':
      return [
        {
          type: 'tool_progress',
          task_id: taskId,
          tool_use_id: String(d.toolCallId),
          tool_name: String(d.name),
          phase: 'finished',
          is_error: d.isError === true,
          elapsed_time_seconds: typeof d.durationMs === 'number' ? d.durationMs / 1000 : 0,
        },
      ];
    case 'run.done':
      return [{ type: 'done', exitCode: EXIT_CODES.done }];
    case 'run.failed':
      return [
        { type: 'error', reason: `${String(d.code)}: ${String(d.message)}` },
        { type: 'done', exitCode: EXIT_CODES.failed },
      ];
    case 'run.cancelled':
      return [
        { type: 'error', reason: 'cancelled' },
        { type: 'done', exitCode: EXIT_CODES.cancelled },
      ];
    default:
      return [];
  }
}
