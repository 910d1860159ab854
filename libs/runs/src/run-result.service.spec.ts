import type { BusListener, RunOutcome, RunRecord } from '@h/db';
import type { Principal } from '@h/identity';
import { RunResultService } from './run-result.service';

const ZERO = { requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0 };
const RUN: RunRecord = {
  id: 'run-1',
  sessionId: 'session-1',
  teamId: 'team-1',
  userId: 'user-1',
  status: 'running',
  clientMessageId: null,
  attempts: 1,
  error: null,
  usage: ZERO,
  cancelRequestedAt: null,
  parentRunId: null,
  parentToolCallId: null,
  profile: null,
  queuedAt: new Date('2026-12-01T10:00:00Z'),
  startedAt: new Date('2026-12-01T10:00:01Z'),
  finishedAt: null,
  createdAt: new Date('2026-12-01T10:00:00Z'),
};

/** The service over in-memory stand-ins: the row, the log's outcome and the bus are the test's to change. */
function world() {
  const state = { run: { ...RUN }, end: null as RunOutcome['end'], pending: null as any, listeners: new Set<BusListener>(), reads: 0 };
  const service = new RunResultService(
    { findById: async () => (state.reads++, { ...state.run }) } as any,
    { findById: async () => ({ id: 'session-1', workspaceId: 'ws-1', title: 'fix it' }) } as any,
    { runOutcomes: async () => new Map([['run-1', { summary: state.end ? 'fixed' : null, reply: null, end: state.end }]]) } as any,
    { listByRun: async () => [] } as any,
    { findPendingForRun: async () => state.pending } as any,
    {
      onMessage: async (l: BusListener) => {
        state.listeners.add(l);
        return () => state.listeners.delete(l);
      },
    } as any,
    { toDto: async (r: RunRecord) => ({ ...r, position: null }) } as any,
    { env: { STREAMS_PER_PRINCIPAL: 2 } } as any,
  );
  const publish = (type: string, runId = 'run-1') => {
    for (const l of state.listeners) l('session-1', { kind: 'event', event: { sessionId: 'session-1', seq: 9, runId, ts: '', type, data: {} } });
  };
  return { state, service, publish };
}

const BOT: Principal = { kind: 'token', tokenId: 'tok-1', userId: 'user-1', teamId: 'team-1', workspaceId: null, scopes: ['read'] };

describe(RunResultService.name, () => {
  afterEach(() => jest.useRealTimers());

  it('should answer a long poll when the run ends, from the logged end even before the row is marked', async () => {
    jest.useFakeTimers();
    const { state, service, publish } = world();
    const answer = service.get('run-1', 60);
    await jest.advanceTimersByTimeAsync(1000);
    expect(state.listeners.size).toBe(1);
    // Another run's end, and this run's own chatter, do not end the wait.
    publish('run.done', 'run-2');
    publish('tool.end');
    await jest.advanceTimersByTimeAsync(1000);
    const readsBefore = state.reads;
    state.end = { type: 'run.done', ts: new Date('2026-12-01T10:01:00Z'), data: { summary: 'fixed', reply: null, usage: { ...ZERO, requests: 5 } } };
    publish('run.done');
    const result = await answer;
    expect(result).toMatchObject({ status: 'completed', summary: 'fixed', usage: { requests: 5 }, finishedAt: new Date('2026-12-01T10:01:00Z') });
    // Woken once, read once more: no polling while it waited.
    expect(state.reads - readsBefore).toBe(1);
    expect(state.listeners.size).toBe(0);
  });

  it('should answer when the run asks a person, and after the wait with the run as it is', async () => {
    jest.useFakeTimers();
    const { state, service, publish } = world();
    const asking = service.get('run-1', 60);
    await jest.advanceTimersByTimeAsync(10);
    state.pending = { id: 'perm-1', runId: 'run-1', toolName: 'run_command', status: 'pending', decision: null };
    publish('permission.requested');
    expect(await asking).toMatchObject({ status: 'waiting_permission', pendingPermission: { id: 'perm-1', toolName: 'run_command' } });
    expect((await asking).pendingPermission).not.toHaveProperty('decision');

    state.pending = null;
    const timedOut = service.get('run-1', 5);
    await jest.advanceTimersByTimeAsync(5000);
    expect(await timedOut).toMatchObject({ status: 'running', pendingPermission: null });
    expect(state.listeners.size).toBe(0);
  });

  it('should let a caller hold only STREAMS_PER_PRINCIPAL waits at once, and free a place when one answers', async () => {
    jest.useFakeTimers();
    const { service } = world();
    const held = [service.get('run-1', 60, BOT), service.get('run-1', 60, BOT)];
    await jest.advanceTimersByTimeAsync(10);
    await expect(service.get('run-1', 60, BOT)).rejects.toMatchObject({ code: 'TOO_MANY_STREAMS' });
    // Another token, and an answer without waiting, are not held back.
    const other = service.get('run-1', 1, { ...BOT, tokenId: 'tok-2' });
    await expect(service.get('run-1', 0, BOT)).resolves.toMatchObject({ status: 'running' });
    await jest.advanceTimersByTimeAsync(1000);
    await other;
    await jest.advanceTimersByTimeAsync(60_000);
    await Promise.all(held);
    const again = service.get('run-1', 1, BOT);
    await jest.advanceTimersByTimeAsync(1000);
    await expect(again).resolves.toMatchObject({ id: 'run-1' });
  });
});
