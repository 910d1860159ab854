import type { EventEnvelope } from '@h/contracts';
import { applyEvents, initialConsoleState, type ToolItem } from './transcript-state';
import type { DelegationItem } from './sub-agent-state';

let seq = 0;
function ev(runId: string | null, type: string, data: unknown): EventEnvelope {
  seq += 1;
  return { sessionId: 's1', seq, runId, ts: new Date(0).toISOString(), type, data };
}
const usage = { requests: 1, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0 };

function delegationLog(): EventEnvelope[] {
  seq = 0;
  return [
    ev('p', 'message.user', { content: 'Find and fix' }),
    ev('p', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
    ev('p', 'message.assistant', { content: null, toolCalls: [{ id: 'd1', name: 'delegate_parallel', arguments: '{}' }] }),
    ev('p', 'delegation.started', { toolCallId: 'd1', children: [{ runId: 'a', profile: 'code-search', task: 'find it' }, { runId: 'b', profile: 'code-writer', task: 'fix it' }] }),
    ev('a', 'message.user', { content: 'find it', prefix: [{ task: 'old', summary: 'old report' }] }),
    ev('b', 'message.user', { content: 'fix it' }),
    ev('a', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
    ev('b', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
    ev('a', 'message.assistant', { content: 'Let me grep.', toolCalls: [{ id: 'a1', name: 'grep', arguments: '{"pattern":"x"}' }] }),
    ev('b', 'message.assistant', { content: null, toolCalls: [{ id: 'b1', name: 'write_file', arguments: '{"path":"x"}' }] }),
    ev('a', 'tool.start', { toolCallId: 'a1', name: 'grep', arguments: '{"pattern":"x"}', category: 'read' }),
    ev('b', 'permission.requested', { permissionId: 'perm', toolCallId: 'b1', toolName: 'write_file', input: { path: 'x' } }),
    ev('a', 'tool.end', { toolCallId: 'a1', name: 'grep', result: 'x.ts:1', isError: false, durationMs: 2 }),
    ev('a', 'message.assistant', { content: 'x is in x.ts:1' }),
    ev('a', 'run.done', { summary: null, reply: 'x is in x.ts:1', usage }),
  ];
}

describe('sub-agents in the console', () => {
  it('should stream sub-agent tool calls into the parent turn with their profile, and show no sub-agent text as messages', () => {
    const state = applyEvents(initialConsoleState, delegationLog());
    expect(state.turns).toHaveLength(1);
    const items = state.turns[0].items;
    expect(items.map((i) => i.kind)).toEqual(['user', 'tool', 'delegation', 'tool', 'tool']);
    const tools = items.filter((i): i is ToolItem => i.kind === 'tool');
    expect(tools.map((t) => [t.name, t.agent ?? 'main', t.status])).toEqual([
      ['delegate_parallel', 'main', 'pending'],
      ['grep', 'code-search', 'ok'],
      ['write_file', 'code-writer', 'waiting'],
    ]);
    const card = items.find((i): i is DelegationItem => i.kind === 'delegation');
    expect(card?.children.map((c) => [c.profile, c.colour, c.status, c.result])).toEqual([
      ['code-search', 'green', 'completed', 'x is in x.ts:1'],
      ['code-writer', 'amber', 'waiting_permission', null],
    ]);
    // The code-writer's approval is a pending card of its own run; the parent's status is its own.
    expect(state.pending).toEqual([expect.objectContaining({ runId: 'b', toolName: 'write_file' })]);
    expect(state.runs).toMatchObject({ a: { status: 'completed' }, b: { status: 'waiting_permission' }, p: { status: 'waiting_children' } });
    expect(state.latestRunId).toBe('p');
  });
});
