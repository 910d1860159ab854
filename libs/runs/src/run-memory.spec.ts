import { rebuildConversation } from '@h/agent';
import type { AppConfig } from '@h/config';
import type { EventEnvelope, RunRecord } from '@h/db';
import type { JobQueueService } from '@h/jobs';
import type { MemoryService } from '@h/memory';
import { RunMemory } from './run-memory';

const RUN = { id: 'r1', teamId: 't1', userId: 'u1', sessionId: 's1', parentRunId: null } as RunRecord;
const message = (content: string, seq = 1) => ({ seq, runId: 'r1', type: 'message.user', data: { content } }) as unknown as EventEnvelope;

function setup(env: Partial<AppConfig['env']> = {}) {
  const calls: string[] = [];
  const service = {
    selectForRun: async (_v: unknown, text: string, o: { maxBytes: number }) => (calls.push(`select ${text} ${o.maxBytes}`), { content: '[What H remembers]\n- a: b', ids: ['m@1'], entries: [] }),
    capture: async (_v: unknown, _a: unknown, text: string) => (calls.push(`capture ${text}`), []),
    userProfile: async () => '- pref-tabs: I prefer tabs',
  } as unknown as MemoryService;
  const jobs = { enqueue: async (name: string, payload: unknown) => (calls.push(`${name} ${JSON.stringify(payload)}`), 'id') } as unknown as JobQueueService;
  const config = { env: { AGENT_MEMORY_MAX_BYTES: 4000, AGENT_MEMORY_AUTO_CAPTURE: 'on', ...env } } as AppConfig;
  return { calls, memory: new RunMemory(config, service, jobs) };
}

describe(RunMemory.name, () => {
  it("should select once at a main run's first segment, then capture the message's preferences", async () => {
    const { calls, memory } = setup();
    const log = [message('I prefer tabs. Fix it.')];
    expect(await memory.opening(RUN, 'w1', log, rebuildConversation(log))).toEqual({ content: '[What H remembers]\n- a: b', ids: ['m@1'] });
    expect(calls).toEqual(['select I prefer tabs. Fix it. 4000', 'capture I prefer tabs. Fix it.']);
  });

  it('should give sub-agents and resumed segments nothing, and capture nothing when auto-capture is off', async () => {
    const { calls, memory } = setup({ AGENT_MEMORY_AUTO_CAPTURE: 'off' });
    const log = [message('hello')];
    expect(await memory.opening({ ...RUN, parentRunId: 'p1' }, 'w1', log, rebuildConversation(log))).toBeUndefined();
    const answered = [...log, { seq: 2, runId: 'r1', type: 'message.assistant', data: { content: 'hi', finishReason: 'stop' } } as unknown as EventEnvelope];
    expect(await memory.opening(RUN, 'w1', answered, rebuildConversation(answered))).toBeUndefined();
    expect(memory.store({ ...RUN, parentRunId: 'p1' }, 'w1')).toBeUndefined();
    await memory.opening(RUN, 'w1', log, rebuildConversation(log));
    expect(calls).toEqual(['select hello 4000']);
  });

  it("should hand sub-agents the user's profile and queue maintenance after a main run only", async () => {
    const { calls, memory } = setup();
    expect(await memory.profile(RUN, 'w1')).toBe('- pref-tabs: I prefer tabs');
    await memory.afterRun({ ...RUN, parentRunId: 'p1' }, 'w1');
    await memory.afterRun(RUN, 'w1');
    expect(calls).toEqual(['memory.maintenance {"teamId":"t1","userId":"u1","workspaceId":"w1"}']);
  });
});
