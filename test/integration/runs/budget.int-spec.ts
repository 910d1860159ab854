// Budgets that stop spend (issue 15): a team's monthly budget refuses new runs (402) and stops a
// running one after the model request that reached it, with a clear run.failed; usage per team,
// user, workspace, model and day adds up to the sum of the team's runs.
import { createRunWorld, finishTurn, RunWorld, scenario, startRun, useScriptedRunStack, waitForRunStatus, allEvents } from '../../support/run-fixtures';
import { bearerClient, createToken } from '../api/team-fixture';

// Dear on purpose: every prompt token costs a thousandth of a dollar, so each request of this
// scenario (~2,000 prompt tokens) costs about $2 and a budget a few dollars above the spend is
// reached within two requests.
const DEAR = { id: 'dear-model', contextWindow: 64_000, price: { cacheHit: 1000, cacheMiss: 1000, output: 1000 } };
const listing = { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] };

const cheapRun = scenario('budget-complete', 'budget: a whole run', [listing, finishTurn()]);
const longRun = scenario('budget-stopped', 'budget: a long run', [listing, listing, listing, listing, listing, finishTurn()]);

describe('team budgets', () => {
  const ctx = useScriptedRunStack([cheapRun, longRun], { MODEL_CATALOG: JSON.stringify([DEAR]) });
  let world: RunWorld;
  const budgetPath = () => `/api/v1/teams/${world.teamId}/budget`;
  const newSession = async () => {
    const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { model: 'dear-model', permissionMode: 'bypass' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  beforeAll(async () => {
    world = await createRunWorld(ctx.stack, 'budget');
  });

  it('should report usage per user, workspace, model and day that adds up to the sum of the runs', async () => {
    const { runId } = await startRun(world, 'budget: a whole run', { sessionId: await newSession() });
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(run.status).toBe('completed');
    expect(run.usage.costUsd).toBeGreaterThan(1);

    const report = await world.client.get(`/api/v1/teams/${world.teamId}/usage`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ runs: 1, requests: run.usage.requests, promptTokens: run.usage.promptTokens, cacheHitTokens: run.usage.cacheHitTokens });
    expect(report.body.costUsd).toBeCloseTo(run.usage.costUsd, 6);
    expect(report.body.cacheHitRatio).toBeCloseTo(run.usage.cacheHitTokens / run.usage.promptTokens, 6);
    expect(report.body.budget).toMatchObject({ monthlyUsd: null, exceeded: false });
    expect(report.body.byModel).toEqual([expect.objectContaining({ key: 'dear-model', runs: 1, requests: run.usage.requests })]);
    expect(report.body.byUser).toEqual([expect.objectContaining({ key: world.userId, runs: 1 })]);
    expect(report.body.byWorkspace).toEqual([expect.objectContaining({ key: world.workspaceId, runs: 1 })]);
    const days = report.body.byDay as Array<{ costUsd: number; runs: number }>;
    expect(days.length).toBeGreaterThanOrEqual(1);
    expect(days.reduce((n, d) => n + d.runs, 0)).toBe(1);
    expect(days.reduce((n, d) => n + d.costUsd, 0)).toBeCloseTo(run.usage.costUsd, 6);
  });

  it('should let only people with admin rights set a budget, and refuse bad values with 400', async () => {
    for (const body of [{ monthlyUsd: -1 }, { monthlyUsd: 'ten' }, {}, { monthlyUsd: 2_000_000 }]) {
      const res = await world.client.put(budgetPath(), body);
      expect([res.status, res.body.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    // A bot's token (even with run scope) never raises its own ceiling.
    const token = await createToken({ client: world.client, userId: world.userId, email: '' }, world.teamId, { scopes: ['read', 'run'] });
    expect((await bearerClient(ctx.stack.url, token.secret).put(budgetPath(), { monthlyUsd: 1e5 })).status).toBe(403);
  });

  it('should stop a run when the budget is reached mid-run, then refuse new runs with 402 until it is raised', async () => {
    const spent = (await world.client.get(budgetPath())).body.spentUsd as number;
    const set = await world.client.put(budgetPath(), { monthlyUsd: Math.round((spent + 3) * 100) / 100 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ exceeded: false, spentUsd: spent });

    const { sessionId, runId } = await startRun(world, 'budget: a long run', { sessionId: await newSession() });
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 60_000);
    expect({ status: run.status, code: run.error?.code }).toEqual({ status: 'failed', code: 'BUDGET_EXCEEDED' });
    // Stopped after the request that reached the budget: well before the scenario's six.
    expect(run.usage.requests).toBeGreaterThanOrEqual(1);
    expect(run.usage.requests).toBeLessThan(4);
    const events = await allEvents(world.client, sessionId);
    const end = events.filter((e) => e.runId === runId).at(-1);
    expect(end).toMatchObject({ type: 'run.failed', data: { code: 'BUDGET_EXCEEDED' } });
    expect(end.data.message).toMatch(/monthly budget of \$[\d.]+ is spent/);
    expect(end.data.message).toMatch(/raises the budget on the team page/);

    const status = (await world.client.get(budgetPath())).body;
    expect(status).toMatchObject({ exceeded: true, warning: true, remainingUsd: 0 });
    const refused = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'budget: one more' });
    expect([refused.status, refused.body.error?.code]).toEqual([402, 'BUDGET_EXCEEDED']);
    expect(refused.body.error.message).toContain('is spent');
    // Nothing was written for the refused message.
    expect((await allEvents(world.client, sessionId)).length).toBe(events.length);

    // Usage still adds up, over both runs.
    const report = (await world.client.get(`/api/v1/teams/${world.teamId}/usage`)).body;
    expect(report.runs).toBe(2);
    expect(report.costUsd).toBeCloseTo(spent + run.usage.costUsd, 6);
    expect(report.budget).toMatchObject({ exceeded: true });

    // Raised (here: removed), runs start again.
    expect((await world.client.put(budgetPath(), { monthlyUsd: null })).body).toMatchObject({ monthlyUsd: null, exceeded: false });
    const again = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'budget: a whole run' });
    expect(again.status).toBe(202);
    await waitForRunStatus(world.client, again.body.id, ['completed', 'failed', 'cancelled'], 60_000);
  });
});
