import type { EventEnvelope } from '@h/contracts';
import { framesOf, h2cStatus, h2cTask } from './h2c-frames';

const usage = { requests: 2, promptTokens: 1200, completionTokens: 80, cacheHitTokens: 1024, cacheMissTokens: 176, reasoningTokens: 0, costUsd: 0.0021 };
const event = (type: string, data: unknown, runId = 'run-1'): EventEnvelope => ({ sessionId: 's', seq: 1, runId, ts: '2026-12-01T00:00:00.000Z', type, data });

describe('h2c frames', () => {
  it('should say what h2c says for each step of a run, and nothing for the rest of the log', () => {
    expect(framesOf('task_1', event('message.assistant', { content: 'Fixing bug...' }))).toEqual([{ type: 'chunk', text: 'Fixing bug...' }]);
    expect(framesOf('task_1', event('message.assistant', { content: null, toolCalls: [] }))).toEqual([]);
    expect(framesOf('task_1', event('permission.requested', { permissionId: 'p1', toolCallId: 'c1', toolName: 'run_command', input: { command: 'git status' } }))).toEqual([
      { type: 'permission_request', task_id: 'task_1', request_id: 'p1', tool_name: 'run_command', input: { command: 'git status' }, tool_use_id: 'c1' },
    ]);
    expect(framesOf('task_1', event('tool.end', { toolCallId: 'c1', name: 'run_command', result: 'ok', isError: false, durationMs: 1500 }))).toEqual([
      { type: 'tool_progress', task_id: 'task_1', tool_use_id: 'c1', tool_name: 'run_command', phase: 'finished', is_error: false, elapsed_time_seconds: 1.5 },
    ]);
    expect(framesOf('task_1', event('run.done', { summary: 's', reply: 'r', usage }))).toEqual([{ type: 'done', exitCode: 0 }]);
    expect(framesOf('task_1', event('run.failed', { code: 'STEP_LIMIT', message: 'too many steps', usage }))).toEqual([
      { type: 'error', reason: 'STEP_LIMIT: too many steps' },
      { type: 'done', exitCode: 1 },
    ]);
    expect(framesOf('task_1', event('run.cancelled', { usage }))).toEqual([{ type: 'error', reason: 'cancelled' }, { type: 'done', exitCode: 130 }]);
    expect(framesOf('task_1', event('usage', {}))).toEqual([]);
    expect(framesOf('task_1', event('text.delta', { delta: 'Fix' }))).toEqual([]);
  });

  it('should map run statuses, usage and the result onto the task as h2c reports it', () => {
    expect(['queued', 'running', 'waiting_permission', 'completed', 'failed', 'cancelled'].map((s) => h2cStatus(s as never))).toEqual([
      'queued',
      'running',
      'running',
      'done',
      'failed',
      'cancelled',
    ]);
    const done = h2cTask('task_1', { status: 'completed', usage }, event('run.done', { summary: 'the summary', reply: null, usage }), null);
    expect(done).toEqual({
      id: 'task_1',
      status: 'done',
      result: 'the summary',
      exitCode: 0,
      usage: { total_cost_usd: 0.0021, input_tokens: 176, output_tokens: 80, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024 },
      queue_position: null,
    });
    expect(h2cTask('task_1', { status: 'completed', usage }, event('run.done', { summary: 's', reply: 'the reply', usage }), null).result).toBe('the reply');
    expect(h2cTask('task_2', { status: 'queued', usage }, null, 3)).toMatchObject({ status: 'queued', result: null, exitCode: null, queue_position: 3 });
  });
});
