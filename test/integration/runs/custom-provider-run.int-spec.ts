import { randomUUID } from 'node:crypto';
import { startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { recordSecrets } from '../security/secret-registry';
import { Client } from 'pg';
import { freePort } from '../../support/free-port';
import { allEvents, createRunWorld, scenario, startRun, useScriptedRunStack, waitForRunStatus, type RunWorld } from '../../support/run-fixtures';

const FINISHED = ['completed', 'failed', 'cancelled'];
// USD per 1M tokens of the team's provider: costs are computed from these, not DeepSeek's.
const PRICE = { input: 2, cacheHit: 0.5, output: 8 };

const twoQuestions = scenario('local-usage', 'local: count my tokens', [
  { expect: { lastMessageRole: 'user' }, text: 'The first answer from the local model, with a few tokens in it.' },
  { expect: { lastMessageRole: 'user', lastMessageContains: 'again' }, text: 'The second answer, a little longer than the first one was, from the same model.' },
]);
const anyAnswer = scenario('local-any', 'local: fail me', [{ text: 'never sent' }]);

// Issue 11, point 5: a run whose session chose the team's own OpenAI-compatible provider goes to
// that server (a second scripted model on its own loopback port, which insists on its own key),
// not to DeepSeek, and reports usage, cache figures and cost from the provider's answer and
// prices. Its failures reach the run as messages naming the provider.
describe('runs through a custom provider', () => {
  // DeepSeek's scripted server: nothing of this file may reach it.
  const ctx = useScriptedRunStack([]);
  let local: ScriptedModelServer;
  const LOCAL_KEY = `sk-local-${randomUUID()}`;

  beforeAll(async () => {
    recordSecrets(LOCAL_KEY);
    local = await startScriptedModelServer({ demo: false, apiKey: LOCAL_KEY, scenarios: [twoQuestions, anyAnswer] });
  });
  afterAll(() => local?.close());
  afterEach(() => {
    const failures = [...local.failures];
    local.reset();
    expect(failures).toEqual([]);
  });

  async function provider(world: RunWorld, extra: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
    const name = `Local ${randomUUID().slice(0, 6)}`;
    const res = await world.client.post(`/api/v1/teams/${world.teamId}/providers`, {
      name,
      baseUrl: local.url,
      apiKey: LOCAL_KEY,
      models: [{ id: 'local-coder', contextWindow: 65536, price: PRICE }, { id: 'not-served', contextWindow: 8192 }],
      ...extra,
    });
    if (res.status !== 201) throw new Error(`create provider: ${res.status} ${res.text}`);
    return { id: res.body.id, name };
  }

  async function sessionOn(world: RunWorld, providerId: string, model = 'local-coder'): Promise<string> {
    const res = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { providerId, model, permissionMode: 'skip' });
    if (res.status !== 201) throw new Error(`create session: ${res.status} ${res.text}`);
    return res.body.id;
  }

  it("should run on the team's provider with its key, and report usage, cache hits and cost by its prices", async () => {
    const world = await createRunWorld(ctx.stack, 'custom-usage');
    // No DeepSeek key at all: the session does not need one.
    expect((await world.client.delete(`/api/v1/teams/${world.teamId}/providers/deepseek`)).status).toBe(204);
    const p = await provider(world);
    const sessionId = await sessionOn(world, p.id);

    const first = await startRun(world, 'local: count my tokens', { sessionId });
    const r1 = await waitForRunStatus(world.client, first.runId, FINISHED, 60000);
    const second = await startRun(world, 'count them again', { sessionId });
    const r2 = await waitForRunStatus(world.client, second.runId, FINISHED, 60000);
    expect([r1.status, r2.status]).toEqual(['completed', 'completed']);

    const served = local.requests.filter((r) => r.status === 200);
    expect(served).toHaveLength(2);
    expect(ctx.model.requests).toEqual([]);
    // The request is plain Chat Completions for the listed model: no DeepSeek fields.
    expect(served[0].body.model).toBe('local-coder');
    expect(served[0].body).not.toHaveProperty('thinking');
    expect(served[1].cacheHitTokens).toBeGreaterThan(0);

    for (const [run, req] of [[r1, served[0]], [r2, served[1]]] as const) {
      expect(run.usage).toMatchObject({ requests: 1, promptTokens: req.promptTokens, cacheHitTokens: req.cacheHitTokens, cacheMissTokens: req.promptTokens - req.cacheHitTokens });
      expect(run.usage.completionTokens).toBeGreaterThan(0);
      const cost = (req.cacheHitTokens * PRICE.cacheHit + (req.promptTokens - req.cacheHitTokens) * PRICE.input + run.usage.completionTokens * PRICE.output) / 1e6;
      expect(run.usage.costUsd).toBeCloseTo(cost, 6);
    }
    const events = await allEvents(world.client, sessionId);
    expect(events.find((e) => e.type === 'run.started')?.data.model).toBe('local-coder');
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage.map((e) => e.data.request.cacheHitTokens)).toEqual([served[0].cacheHitTokens, served[1].cacheHitTokens]);
    const state = (await world.client.get(`/api/v1/sessions/${sessionId}/state`)).body.usage;
    expect(state.cacheHitTokens).toBe(served[0].cacheHitTokens + served[1].cacheHitTokens);
    expect(state.costUsd).toBeCloseTo(r1.usage.costUsd + r2.usage.costUsd, 6);
    const team = (await world.client.get(`/api/v1/teams/${world.teamId}/usage`)).body;
    expect(team.costUsd).toBeCloseTo(state.costUsd, 6);
  });

  it('should fail with messages naming the provider: wrong key, a model it does not serve, nothing listening, deleted', async () => {
    const world = await createRunWorld(ctx.stack, 'custom-errors');
    const wrongKey = `sk-wrong-${randomUUID()}`;
    recordSecrets(wrongKey);
    // settings: the section the failure event names for the console's "Open Settings" link.
    const cases: { setup: () => Promise<string>; code: string; message: RegExp; prompt?: string; settings?: string }[] = [
      {
        setup: async () => sessionOn(world, (await provider(world, { name: 'Wrong key lab', apiKey: wrongKey })).id),
        code: 'PROVIDER_AUTH_FAILED',
        settings: 'customProviders',
        message: /provider "Wrong key lab" rejected the API key \(HTTP 401\)\. Set a valid key for your team under Settings → OpenAI-compatible providers → Wrong key lab/,
      },
      {
        setup: async () => sessionOn(world, (await provider(world, { name: 'Model lab' })).id, 'not-served'),
        code: 'PROVIDER_BAD_REQUEST',
        // No scenario matches: the scripted server answers 404 like a server without the model.
        prompt: 'a question no scenario of the local server knows',
        message: /provider "Model lab" has no model "not-served" at http:\/\/127\.0\.0\.1:\d+\/v1, or the base URL is wrong \(HTTP 404\)/,
      },
      {
        setup: async () => sessionOn(world, (await provider(world, { name: 'Down lab', baseUrl: `http://127.0.0.1:${await freePort()}/v1` })).id),
        code: 'PROVIDER_UNREACHABLE',
        message: /provider "Down lab" refused the connection at http:\/\/127\.0\.0\.1:\d+\/v1/,
      },
      {
        setup: async () => {
          const p = await provider(world, { name: 'Gone lab' });
          const id = await sessionOn(world, p.id);
          expect((await world.client.delete(`/api/v1/teams/${world.teamId}/providers/custom/${p.id}`)).status).toBe(204);
          return id;
        },
        code: 'PROVIDER_GONE',
        settings: 'customProviders',
        message: /provider this session uses was deleted/,
      },
    ];
    for (const c of cases) {
      const sessionId = await c.setup();
      const { runId } = await startRun(world, c.prompt ?? 'local: fail me', { sessionId });
      const run = await waitForRunStatus(world.client, runId, FINISHED, 60000);
      expect({ status: run.status, code: run.error?.code }).toEqual({ status: 'failed', code: c.code });
      expect(run.error.message).toMatch(c.message);
      const last = (await allEvents(world.client, sessionId)).at(-1);
      expect(last).toEqual(expect.objectContaining({ type: 'run.failed', data: expect.objectContaining({ code: c.code }) }));
      expect(last?.data.settings).toBe(c.settings);
      expect(JSON.stringify(last)).not.toContain(wrongKey);
    }
    // A rejected key is not retried; nothing went to DeepSeek.
    expect(local.requests.filter((r) => r.status === 401)).toHaveLength(1);
    expect(ctx.model.requests).toEqual([]);
  });

  it('should refuse at run time a stored base URL the instance does not (or no longer) approve', async () => {
    const world = await createRunWorld(ctx.stack, 'custom-guard');
    const p = await provider(world, { name: 'Moved lab' });
    // As if saved before an admin shrank PROVIDER_ALLOWED_INTERNAL_HOSTS: 127.0.0.2 is not on it.
    const db = new Client({ connectionString: ctx.stack.config.env.DATABASE_URL });
    await db.connect();
    await db.query('UPDATE "CustomProvider" SET "baseUrl" = $1 WHERE id = $2', [local.url.replace('127.0.0.1', '127.0.0.2'), p.id]).finally(() => db.end());
    const sessionId = await sessionOn(world, p.id);
    const { runId } = await startRun(world, 'local: fail me', { sessionId });
    const run = await waitForRunStatus(world.client, runId, FINISHED, 30000);
    expect({ status: run.status, code: run.error?.code }).toEqual({ status: 'failed', code: 'PROVIDER_UNREACHABLE' });
    expect(run.error.message).toMatch(/provider "Moved lab": Plain http is refused for 127\.0\.0\.2: .*PROVIDER_ALLOWED_INTERNAL_HOSTS/);
    expect(local.requests).toEqual([]);
  });
});
