import type { EventEnvelope } from '@h/contracts';
import { applyDelta, applyEvents, cacheHitPercent, type ConsoleState, formatContextUse, initialConsoleState, visibleTurns } from './transcript-state';

let seq = 0;
function ev(runId: string | null, type: string, data: unknown): EventEnvelope {
  seq += 1;
  return { sessionId: 's1', seq, runId, ts: new Date(0).toISOString(), type, data };
}

function oneByOne(events: EventEnvelope[]): ConsoleState {
  return events.reduce((s, e) => applyEvents(s, [e]), initialConsoleState);
}

const usage = { requests: 1, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0 };

function runLog(): EventEnvelope[] {
  seq = 0;
  return [
    ev('r1', 'message.user', { content: 'Fix the test', userId: 'u1' }),
    ev('r1', 'run.started', { model: 'm', thinking: true, systemChunkIds: [] }),
    ev('r1', 'message.assistant', {
      content: null,
      reasoningContent: 'Read first.',
      toolCalls: [
        { id: 'c1', name: 'read_file', arguments: '{"path":"src/math.js"}' },
        { id: 'c2', name: 'run_command', arguments: '{"command":"npm test"}' },
      ],
    }),
    ev('r1', 'usage', { request: { promptTokens: 1000, completionTokens: 50, cacheHitTokens: 0, cacheMissTokens: 1000 }, costUsd: 0.001, totals: usage, contextTokens: 1, contextWindow: 2 }),
    ev('r1', 'tool.start', { toolCallId: 'c1', name: 'read_file', arguments: '{"path":"src/math.js"}', category: 'read' }),
    ev('r1', 'tool.end', { toolCallId: 'c1', name: 'read_file', result: 'return a - b', isError: false, durationMs: 3 }),
    ev('r1', 'permission.requested', { permissionId: 'p1', toolCallId: 'c2', toolName: 'run_command', input: { command: 'npm test' } }),
    // A second message posted while the first run waits: it is queued behind it.
    ev('r2', 'message.user', { content: 'Then explain it', userId: 'u1' }),
    ev('r1', 'permission.resolved', { permissionId: 'p1', toolCallId: 'c2', toolName: 'run_command', behavior: 'allow' }),
    ev('r1', 'run.started', { model: 'm', thinking: true, systemChunkIds: [] }),
    ev('r1', 'tool.start', { toolCallId: 'c2', name: 'run_command', arguments: '{"command":"npm test"}', category: 'command' }),
    ev('r1', 'tool.end', { toolCallId: 'c2', name: 'run_command', result: 'FAIL', isError: true, durationMs: 20 }),
    ev('r1', 'message.assistant', { content: 'It fails.', reasoningContent: null }),
    ev('r1', 'usage', { request: { promptTokens: 1200, completionTokens: 20, cacheHitTokens: 960, cacheMissTokens: 240 }, costUsd: 0.0005, totals: usage, contextTokens: 1, contextWindow: 2 }),
    ev('r1', 'summary.written', { summary: '### Changes Made\n- none' }),
    ev('r1', 'run.done', { summary: null, reply: 'It fails.', usage }),
  ];
}

describe('console transcript state', () => {
  it('should show each run in order with its tool calls, decisions and summary', () => {
    const state = applyEvents(initialConsoleState, runLog());
    const [first, second] = state.turns;
    expect(first.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'summary', 'end']);
    expect(first.items.filter((i) => i.kind === 'tool')).toEqual([
      expect.objectContaining({ name: 'read_file', status: 'ok', result: 'return a - b', durationMs: 3 }),
      expect.objectContaining({ name: 'run_command', status: 'error', result: 'FAIL' }),
    ]);
    // The queued message comes after the run in progress, not in the middle of it.
    expect(second.items).toEqual([expect.objectContaining({ kind: 'user', content: 'Then explain it' })]);
    expect(state.runs.r1).toEqual({ status: 'completed', error: null });
    expect(state.runs.r2.status).toBe('queued');
    expect(state.latestRunId).toBe('r2');
    expect(state.pending).toEqual([]);
    expect(state.summary).toBe('### Changes Made\n- none');
    expect(state.usage).toMatchObject({ requests: 2, promptTokens: 2200, completionTokens: 70, cacheHitTokens: 960 });
    expect(cacheHitPercent(state.usage)).toBe(44);
  });

  it('should build the same transcript from live events one by one as from a reload of the log', () => {
    const log = runLog();
    expect(oneByOne(log)).toEqual(applyEvents(initialConsoleState, log));
  });

  it('should ignore events it already holds when a reconnect replays an overlap', () => {
    const log = runLog();
    const state = applyEvents(initialConsoleState, log.slice(0, 8));
    expect(applyEvents(state, log.slice(5))).toEqual(applyEvents(initialConsoleState, log));
  });

  it('should keep a pending permission until it is resolved and mark the run waiting', () => {
    const log = runLog();
    const waiting = applyEvents(initialConsoleState, log.slice(0, 7));
    expect(waiting.pending).toEqual([{ permissionId: 'p1', runId: 'r1', toolCallId: 'c2', toolName: 'run_command', input: { command: 'npm test' }, preview: null }]);
    expect(waiting.runs.r1.status).toBe('waiting_permission');
    const resolved = applyEvents(waiting, log.slice(7, 9));
    expect(resolved.pending).toEqual([]);
    expect(resolved.runs.r1.status).toBe('running');
  });

  it('should stream text from deltas and replace it by the persisted message', () => {
    seq = 0;
    let state = applyEvents(initialConsoleState, [ev('r1', 'message.user', { content: 'hi' }), ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] })]);
    state = applyDelta(state, { type: 'thinking.delta', data: { delta: 'Hmm' }, afterSeq: 2, runId: 'r1' });
    state = applyDelta(state, { type: 'text.delta', data: { delta: 'Hel' }, afterSeq: 2, runId: 'r1' });
    state = applyDelta(state, { type: 'text.delta', data: { delta: 'lo' }, afterSeq: 2, runId: 'r1' });
    expect(visibleTurns(state)[0].items.at(-1)).toMatchObject({ kind: 'assistant', content: 'Hello', reasoning: 'Hmm', streaming: true });

    state = applyEvents(state, [ev('r1', 'message.assistant', { content: 'Hello!', reasoningContent: 'Hmm' })]);
    // A delta of that message arriving late must not bring the streaming copy back.
    state = applyDelta(state, { type: 'text.delta', data: { delta: 'late' }, afterSeq: 2, runId: 'r1' });
    const items = visibleTurns(state)[0].items;
    expect(items.filter((i) => i.kind === 'assistant')).toEqual([{ kind: 'assistant', key: 'assistant-3', content: 'Hello!', reasoning: 'Hmm' }]);
  });

  it('should show a failed run with its error and stop spinners of calls it never finished', () => {
    seq = 0;
    const state = applyEvents(initialConsoleState, [
      ev('r1', 'message.user', { content: 'go' }),
      ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
      ev('r1', 'tool.start', { toolCallId: 'c1', name: 'run_command', arguments: '{}', category: 'command' }),
      ev('r1', 'run.failed', { code: 'PROVIDER_ERROR', message: 'The provider refused the key.', usage }),
    ]);
    expect(state.runs.r1).toEqual({ status: 'failed', error: 'The provider refused the key.' });
    expect(state.turns[0].items.find((i) => i.kind === 'tool')).toMatchObject({ status: 'error' });
    expect(state.turns[0].items.at(-1)).toMatchObject({ kind: 'end', status: 'failed', text: 'Run failed: The provider refused the key.' });
    // A provider's failure is not mended in the settings; a missing key is.
    expect(state.turns[0].items.at(-1)).not.toHaveProperty('fixIn');
    const missing = applyEvents(initialConsoleState, [
      ev('r2', 'message.user', { content: 'go' }),
      ev('r2', 'run.failed', { code: 'PROVIDER_KEY_MISSING', message: 'No DeepSeek API key is set.', usage }),
    ]);
    // An event recorded before failures named their section still sends the person to Settings.
    expect(missing.turns[0].items.at(-1)).toMatchObject({ kind: 'end', status: 'failed', fixIn: 'settings' });
    const named = applyEvents(initialConsoleState, [
      ev('r3', 'message.user', { content: 'go' }),
      ev('r3', 'run.failed', { code: 'PROVIDER_AUTH_FAILED', message: 'The Anthropic key was refused.', usage, settings: 'anthropicKey' }),
    ]);
    expect(named.turns[0].items.at(-1)).toMatchObject({ kind: 'end', status: 'failed', fixIn: 'anthropicKey' });
  });

  it('should show the newest plan the agent wrote', () => {
    seq = 0;
    const state = applyEvents(initialConsoleState, [
      ev('r1', 'todos.updated', { todos: [{ content: 'Read the test', status: 'in_progress' }] }),
      ev('r1', 'todos.updated', { todos: [{ content: 'Read the test', status: 'completed' }, { content: 'Fix add()', status: 'pending' }] }),
    ]);
    expect(state.todos).toEqual([
      { content: 'Read the test', status: 'completed' },
      { content: 'Fix add()', status: 'pending' },
    ]);
  });
});

describe('context use and run-scoped todos', () => {
  it('should show the context use of the newest request as "~N / M tokens, X %"', () => {
    seq = 0;
    const usageEvent = (contextTokens: number) =>
      ev('r1', 'usage', { request: { promptTokens: 1, completionTokens: 1, cacheHitTokens: 0, cacheMissTokens: 1 }, costUsd: 0, totals: usage, contextTokens, contextWindow: 1_000_000 });
    const state = applyEvents(initialConsoleState, [ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }), usageEvent(4_200), usageEvent(12_345)]);
    expect(state.context).toEqual({ tokens: 12_345, window: 1_000_000 });
    expect(formatContextUse(state.context ?? { tokens: 0, window: 0 })).toBe('~12k / 1.0M tokens, 1.2 %');
    expect(formatContextUse({ tokens: 96_000, window: 128_000 })).toBe('~96k / 128k tokens, 75 %');
  });

  it('should keep a run’s todos across its resumed segments and start the next run without them', () => {
    seq = 0;
    const todos = [{ content: 'Fix add()', status: 'pending' }];
    const paused = applyEvents(initialConsoleState, [
      ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
      ev('r1', 'todos.updated', { todos }),
      ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
    ]);
    expect(paused.todos).toEqual(todos);
    const next = applyEvents(paused, [ev('r2', 'message.user', { content: 'something else' }), ev('r2', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] })]);
    expect(next.todos).toEqual([]);
  });

  it('should show a preview URL the agent’s server serves as a notice in its turn', () => {
    seq = 0;
    const state = applyEvents(initialConsoleState, [
      ev('r1', 'message.user', { content: 'serve it' }),
      ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
      ev('r1', 'preview.detected', { url: 'http://0.0.0.0:8000/', terminalId: 't1', toolCallId: 'c1' }),
    ]);
    expect(state.turns[0].items.at(-1)).toEqual({ kind: 'notice', key: 'preview-3', tone: 'info', text: 'Preview detected: http://0.0.0.0:8000/' });
  });
});

describe('diff cards in the transcript', () => {
  it('should show a card per file.changed and follow its status when it is rejected or reverted', () => {
    seq = 0;
    const changed = (id: string, path: string) => ev('r1', 'file.changed', { changeId: id, toolCallId: 'c1', kind: 'modify', path, fromPath: null, added: 1, removed: 1, binary: false, tooLarge: false });
    const state = oneByOne([
      ev('r1', 'message.user', { content: 'edit' }),
      ev('r1', 'run.started', { model: 'm', thinking: false, systemChunkIds: [] }),
      changed('ch1', 'a.txt'),
      changed('ch2', 'b.txt'),
      ev('r1', 'file.change.resolved', { changeIds: ['ch1'], status: 'rejected', changes: [], decidedBy: 'u1' }),
    ]);
    const cards = state.turns[0].items.filter((i) => i.kind === 'change');
    expect(cards.map((c) => c.kind === 'change' && [c.path, c.status])).toEqual([
      ['a.txt', 'rejected'],
      ['b.txt', 'applied'],
    ]);
  });
});
