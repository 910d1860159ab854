import { join } from 'node:path';
import { builtinScenarioDir, loadScenarioFile } from '@h/scripted-model';
import {
  allEvents,
  createRunWorld,
  SCRIPTED_API_KEY,
  scenario,
  seedWorkspace,
  startRun,
  useScriptedRunStack,
  waitForRunStatus,
} from '../../support/run-fixtures';

const FINISHED = ['completed', 'failed', 'cancelled'];
const USAGE_FIELDS = ['requests', 'promptTokens', 'completionTokens', 'cacheHitTokens', 'cacheMissTokens', 'reasoningTokens'] as const;
type Usage = Record<(typeof USAGE_FIELDS)[number] | 'costUsd', number>;

const fixScenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));
const brokenProvider = scenario('provider-500', 'provider: always broken', [
  { expect: { lastMessageRole: 'user' }, fault: { type: 'server_error', status: 500, times: 1000 }, text: 'never sent' },
]);
const rejectedKey = scenario('provider-401', 'provider: wrong key', [{ text: 'never sent' }]);
const twoQuestions = scenario('provider-usage', 'provider: count my tokens', [
  { expect: { lastMessageRole: 'user' }, text: 'The first answer, with a few tokens in it.' },
  { expect: { lastMessageRole: 'user', lastMessageContains: 'again' }, text: 'The second answer, a little longer than the first one was.' },
]);

function sumUsage(items: Usage[]): Usage {
  const total = { requests: 0, promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0, costUsd: 0 };
  for (const u of items) for (const k of [...USAGE_FIELDS, 'costUsd'] as const) total[k] += u[k];
  return total;
}

function expectSameUsage(actual: Usage, expected: Usage): void {
  for (const k of USAGE_FIELDS) expect({ [k]: actual[k] }).toEqual({ [k]: expected[k] });
  expect(actual.costUsd).toBeCloseTo(expected.costUsd, 8);
}

describe('provider failures and usage accounting', () => {
  // The scripted provider insists on the key createRunWorld stores, so a team with another key gets 401.
  const ctx = useScriptedRunStack([fixScenario, brokenProvider, rejectedKey, twoQuestions], {}, { apiKey: SCRIPTED_API_KEY });

  it('should fail the run with run.failed and advice when the provider keeps answering 500', async () => {
    const world = await createRunWorld(ctx.stack, 'prov-500');
    const { sessionId, runId } = await startRun(world, 'provider: always broken', { permissionMode: 'skip' });
    const run = await waitForRunStatus(world.client, runId, FINISHED, 60000);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('PROVIDER_ERROR');
    expect(run.error.message).toMatch(/HTTP 500/);
    expect(run.error.message).toMatch(/try again/i);

    const events = await allEvents(world.client, sessionId);
    const last = events.at(-1);
    expect(last).toEqual(expect.objectContaining({ type: 'run.failed', runId }));
    expect(last.data.code).toBe(run.error.code);
    expect(last.data.message).toBe(run.error.message);
    // It was retried before giving up, and nothing was billed for failed requests.
    expect(ctx.model.requests.filter((r) => r.scenario === 'provider-500').length).toBeGreaterThan(1);
    expect(run.usage.requests).toBe(0);
    expect((await world.client.get(`/api/v1/sessions/${sessionId}/state`)).body.activeRunId).toBeNull();
  });

  it('should fail at once with advice to fix the key, without echoing it, when the provider answers 401', async () => {
    const world = await createRunWorld(ctx.stack, 'prov-401');
    const wrongKey = 'sk-this-key-is-wrong-0123456789';
    expect((await world.client.put(`/api/v1/teams/${world.teamId}/providers/deepseek`, { apiKey: wrongKey })).status).toBe(200);
    const { sessionId, runId } = await startRun(world, 'provider: wrong key', { permissionMode: 'skip' });
    const run = await waitForRunStatus(world.client, runId, FINISHED, 30000);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('PROVIDER_AUTH_FAILED');
    expect(run.error.message).toMatch(/HTTP 401/);
    expect(run.error.message).toMatch(/Settings → DeepSeek API key/);
    const events = await allEvents(world.client, sessionId);
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'run.failed', data: expect.objectContaining({ code: 'PROVIDER_AUTH_FAILED', settings: 'deepseekKey' }) }));
    expect(JSON.stringify(events)).not.toContain(wrongKey);
    // A rejected key is not retried.
    expect(ctx.model.requests.filter((r) => r.status === 401)).toHaveLength(1);
  });

  it('should fail with PROVIDER_KEY_MISSING when the team has no DeepSeek key', async () => {
    const world = await createRunWorld(ctx.stack, 'prov-nokey');
    expect((await world.client.delete(`/api/v1/teams/${world.teamId}/providers/deepseek`)).status).toBeLessThan(300);
    const { sessionId, runId } = await startRun(world, 'provider: count my tokens', { permissionMode: 'skip' });
    const run = await waitForRunStatus(world.client, runId, FINISHED, 30000);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('PROVIDER_KEY_MISSING');
    expect(run.error.message).toMatch(/Settings → DeepSeek API key/);
    const last = (await allEvents(world.client, sessionId)).at(-1);
    // The console links the failure to the section where the key is set.
    expect(last).toEqual(expect.objectContaining({ type: 'run.failed', data: expect.objectContaining({ code: 'PROVIDER_KEY_MISSING', settings: 'deepseekKey' }) }));
    expect(ctx.model.requests).toEqual([]);
  });

  it('should add usage up per run, per session and per team month, matching what the provider counted', async () => {
    const world = await createRunWorld(ctx.stack, 'prov-usage');
    await seedWorkspace(ctx.stack, world, fixScenario.fixture ?? {});
    const fix = await startRun(world, 'The failing test in test/math.test.js needs fixing.', { permissionMode: 'skip' });
    const q1 = await startRun(world, 'provider: count my tokens', { permissionMode: 'skip' });
    const fixRun = await waitForRunStatus(world.client, fix.runId, FINISHED, 60000);
    const q1Run = await waitForRunStatus(world.client, q1.runId, FINISHED, 60000);
    const q2 = await startRun(world, 'count them again', { sessionId: q1.sessionId });
    const q2Run = await waitForRunStatus(world.client, q2.runId, FINISHED, 60000);
    expect([fixRun.status, q1Run.status, q2Run.status]).toEqual(['completed', 'completed', 'completed']);
    expect([fixRun.usage.requests, q1Run.usage.requests, q2Run.usage.requests]).toEqual([5, 1, 1]);
    for (const r of [fixRun, q1Run, q2Run]) {
      expect(r.usage.promptTokens).toBeGreaterThan(0);
      expect(r.usage.completionTokens).toBeGreaterThan(0);
      expect(r.usage.costUsd).toBeGreaterThan(0);
    }

    // Each run's totals are what the provider counted for its requests, and what its usage events say.
    // H names no conversation to the provider: a session's requests are the ones with its first message.
    const firstMessages: Record<string, string> = { [fix.sessionId]: 'The failing test in test/math.test.js needs fixing.', [q1.sessionId]: 'provider: count my tokens' };
    const served = (sessionId: string) => ctx.model.requests.filter((r) => r.firstUserMessage?.startsWith(firstMessages[sessionId]) && r.status === 200);
    expect(fixRun.usage.promptTokens).toBe(served(fix.sessionId).reduce((n, r) => n + r.promptTokens, 0));
    expect(fixRun.usage.cacheHitTokens).toBe(served(fix.sessionId).reduce((n, r) => n + r.cacheHitTokens, 0));
    const [first, second] = served(q1.sessionId);
    expect([q1Run.usage.promptTokens, q2Run.usage.promptTokens]).toEqual([first.promptTokens, second.promptTokens]);
    expect(q2Run.usage.cacheHitTokens).toBe(second.cacheHitTokens);
    for (const [run, sessionId] of [
      [fixRun, fix.sessionId],
      [q2Run, q1.sessionId],
    ] as const) {
      const events = await allEvents(world.client, sessionId);
      const usageEvents = events.filter((e) => e.type === 'usage' && e.runId === run.id);
      expect(usageEvents).toHaveLength(run.usage.requests);
      expect(usageEvents.reduce((n, e) => n + e.data.request.completionTokens, 0)).toBe(run.usage.completionTokens);
      // One usage shape: the log's run totals are the API's run usage, field for field.
      const done = events.find((e) => e.type === 'run.done' && e.runId === run.id);
      expect(Object.keys(done.data.usage).sort()).toEqual(Object.keys(run.usage).sort());
      expectSameUsage(done.data.usage, run.usage);
      expectSameUsage(usageEvents.at(-1).data.totals, run.usage);
    }

    const fixSession = (await world.client.get(`/api/v1/sessions/${fix.sessionId}/state`)).body.usage;
    expectSameUsage(fixSession, fixRun.usage);
    const qSession = (await world.client.get(`/api/v1/sessions/${q1.sessionId}/state`)).body.usage;
    expectSameUsage(qSession, sumUsage([q1Run.usage, q2Run.usage]));

    const month = new Date().toISOString().slice(0, 7);
    const team = (await world.client.get(`/api/v1/teams/${world.teamId}/usage`)).body;
    expect(team.month).toBe(month);
    expect(team.runs).toBe(3);
    expectSameUsage(team, sumUsage([fixRun.usage, q1Run.usage, q2Run.usage]));
    expect((await world.client.get(`/api/v1/teams/${world.teamId}/usage?month=${month}`)).body).toEqual(team);
    const lastYear = `${Number(month.slice(0, 4)) - 1}${month.slice(4)}`;
    expect((await world.client.get(`/api/v1/teams/${world.teamId}/usage?month=${lastYear}`)).body).toEqual(
      expect.objectContaining({ month: lastYear, runs: 0, requests: 0, costUsd: 0 }),
    );
  });
});
