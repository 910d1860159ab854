import type { AgentEvent } from '@h/contracts';
import { parseAgentEvent } from '@h/contracts';
import { Conversation, INTERRUPTED_RESULT, pairingViolations, rebuildConversation } from './conversation';

const assistant = (calls: Array<[string, string]>, content: string | null = null): AgentEvent => ({
  type: 'message.assistant',
  data: { content, reasoningContent: 'thinking…', toolCalls: calls.map(([id, name]) => ({ id, name, arguments: '{}' })) },
});
const toolEnd = (id: string, name: string, result = 'ok'): AgentEvent => ({
  type: 'tool.end',
  data: { toolCallId: id, name, result, isError: false, durationMs: 1 },
});
const user = (content: string): AgentEvent => ({ type: 'message.user', data: { content } });

describe(rebuildConversation.name, () => {
  it('should rebuild messages, todos and the system chunks from events; the model sees the preview, never the stored output', () => {
    const c = rebuildConversation([
      { type: 'run.started', data: { model: 'm', thinking: true, systemChunkIds: ['core_rules'] } },
      user('fix it'),
      assistant([['c1', 'run_command']]),
      { type: 'tool.end', data: { toolCallId: 'c1', name: 'run_command', result: '[cmd #4] key lines', isError: false, durationMs: 3, outputId: 4, outputLabel: 'npm test', outputBytes: 9, outputTruncated: false } },
      { type: 'todos.updated', data: { todos: [{ content: 'a', status: 'pending' }] } },
      { type: 'run.started', data: { model: 'm', thinking: true, systemChunkIds: ['ignored'] } },
      { type: 'permission.requested', data: { anything: true } },
    ]);
    expect(c.messages).toEqual([
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: null, reasoningContent: 'thinking…', toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{}' }] },
      { role: 'tool', content: '[cmd #4] key lines', toolCallId: 'c1', name: 'run_command' },
    ]);
    expect(c.systemChunkIds).toEqual(['core_rules']);
    expect(c.todos).toEqual([{ content: 'a', status: 'pending' }]);
  });

  it('should give orphaned calls a synthetic error result right after their siblings (crash mid-batch)', () => {
    const c = rebuildConversation([user('go'), assistant([['a', 'read_file'], ['b', 'run_command']]), toolEnd('a', 'read_file'), user('are you there?')]);
    expect(c.messages.map((m) => [m.role, m.toolCallId ?? null, m.content])).toEqual([
      ['user', null, 'go'],
      ['assistant', null, null],
      ['tool', 'a', 'ok'],
      ['tool', 'b', INTERRUPTED_RESULT],
      ['user', null, 'are you there?'],
    ]);
    expect(pairingViolations(c.messages)).toEqual([]);
  });

  it('should close calls still open at the end of the log and drop results without a call', () => {
    const c = rebuildConversation([user('go'), toolEnd('zz', 'read_file'), assistant([['a', 'read_file']])]);
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(c.messages[2].content).toBe(INTERRUPTED_RESULT);
    expect(pairingViolations(c.messages)).toEqual([]);
  });

  it('should append guidance to the newest message instead of adding a system message', () => {
    const c = rebuildConversation([
      user('go'),
      assistant([['a', 'read_file']]),
      toolEnd('a', 'read_file', 'file text'),
      { type: 'prompt.guidance', data: { chunkIds: ['lang_js'], content: 'G1' } },
      assistant([], 'plain'),
      { type: 'prompt.guidance', data: { chunkIds: ['diagnostics'], content: 'G2' } },
    ]);
    expect(c.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'go'],
      ['assistant', null],
      ['tool', 'file text\n\nG1'],
      ['assistant', 'plain'],
      ['user', 'G2'],
    ]);
    expect(c.messages.some((m) => m.role === 'system')).toBe(false);
    expect([...c.includedChunkIds()]).toEqual(['lang_js', 'diagnostics']);
  });

  it('should replace the first messages by the summary on a compaction event', () => {
    const c = new Conversation();
    for (const e of [user('one'), assistant([], 'two'), user('three')]) c.apply(e);
    c.apply({ type: 'compaction', data: { replacedMessages: 2, summary: '[Compacted history] s', tokensBefore: 9, tokensAfter: 3 } });
    expect(c.messages).toEqual([{ role: 'user', content: '[Compacted history] s' }, { role: 'user', content: 'three' }]);
  });

  it('should validate events against the contract schemas', () => {
    expect(() => parseAgentEvent(toolEnd('a', 'x'))).not.toThrow();
    expect(() => parseAgentEvent({ type: 'tool.end', data: { toolCallId: 1 } })).toThrow();
  });
});

describe('run locks in the conversation', () => {
  const readProblems = (id: string, errorCount: number): AgentEvent[] => [
    assistant([[id, 'read_problems']]),
    { type: 'tool.end', data: { toolCallId: id, name: 'read_problems', result: `${errorCount} errors`, isError: false, durationMs: 1, data: { errorCount, warningCount: 0, source: 'lsp', text: '' } } },
  ];

  it('should fold problems, todos, summary and steps of the run, and clear them at the next message a person writes', () => {
    const run = [
      user('fix it'),
      ...readProblems('p1', 3),
      { type: 'todos.updated', data: { todos: [{ content: 'a', status: 'pending' }] } } as AgentEvent,
      { type: 'summary.written', data: { summary: 'S' } } as AgentEvent,
      { type: 'message.user', data: { content: 'finish with write_summary', synthetic: true } } as AgentEvent,
    ];
    const c = rebuildConversation(run);
    expect([c.problems?.errorCount, c.todos.length, c.summary, c.stepsSinceMessage]).toEqual([3, 1, 'S', 1]);
    // A later read that failed leaves the lock as it was; a successful one replaces it.
    c.apply({ type: 'message.assistant', data: { content: null, toolCalls: [{ id: 'p2', name: 'read_problems', arguments: '{}' }] } });
    c.apply({ type: 'tool.end', data: { toolCallId: 'p2', name: 'read_problems', result: 'Error', isError: true, durationMs: 1 } });
    expect(c.problems?.errorCount).toBe(3);
    for (const e of readProblems('p3', 0)) c.apply(e);
    expect([c.problems?.errorCount, c.stepsSinceMessage]).toEqual([0, 3]);
    c.apply(user('something else'));
    expect([c.problems, c.todos, c.summary, c.stepsSinceMessage]).toEqual([null, [], null, 0]);
  });
});

describe('rejected changes in the conversation', () => {
  const rejected = {
    type: 'file.change.resolved',
    data: { changeIds: ['ch1'], status: 'rejected', changes: [{ changeId: 'ch1', kind: 'modify', path: 'src/a.ts', fromPath: null }], decidedBy: 'u1' },
  };

  it('should tell the model on the next new message and leave every message it was sent as it was', () => {
    const head = [user('edit a.ts'), assistant([['c1', 'edit_file']]), toolEnd('c1', 'edit_file', 'Edited src/a.ts'), assistant([], 'done')];
    const before = rebuildConversation(head).messages;
    const after = rebuildConversation([...head, rejected, user('go on')]).messages;
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toEqual({
      role: 'user',
      content: 'go on\n\n[Note from H] The user rejected your change to src/a.ts (it was restored to its content before your change). Read the file again before editing it, and do not redo the change unless asked.',
    });
  });

  it('should say nothing about an accepted change', () => {
    const c = rebuildConversation([user('x'), { ...rejected, data: { ...rejected.data, status: 'accepted' } }, user('y')]);
    expect(c.messages.at(-1)).toEqual({ role: 'user', content: 'y' });
  });
});
