// Limits that mean something: the step limit counts a whole run across a pause for approval, a
// session sets its own within the instance's maximum, and model ids come from the catalog.
import { createRunWorld, RunWorld, scenario, startRun, useScriptedRunStack, waitForPendingPermission, waitForRunStatus, allEvents } from '../../support/run-fixtures';

const HOUSE_MODEL = { id: 'house-model', contextWindow: 32_000, price: { cacheHit: 0.01, cacheMiss: 0.1, output: 0.2 } };

const pausingScenario = scenario('limits-steps-across-pause', 'limits: count my steps', [
  { toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved' } }] },
  { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
  { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
  { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
]);

describe('run limits and the model catalog', () => {
  const ctx = useScriptedRunStack([pausingScenario], {
    AGENT_MAX_STEPS: '20',
    AGENT_MAX_STEPS_LIMIT: '5',
    MODEL_CATALOG: JSON.stringify([HOUSE_MODEL]),
  });
  let world: RunWorld;
  beforeAll(async () => {
    world = await createRunWorld(ctx.stack, 'limits');
  });
  const sessions = () => `/api/v1/workspaces/${world.workspaceId}/sessions`;

  it('should refuse a model outside the catalog, naming the known ones, and accept a configured one', async () => {
    const unknown = await world.client.post(sessions(), { model: 'gpt-imaginary' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('UNKNOWN_MODEL');
    expect(unknown.body.error.message).toContain('deepseek-v4-flash');
    expect(unknown.body.error.message).toContain('house-model');
    const configured = await world.client.post(sessions(), { model: 'house-model' });
    expect(configured.status).toBe(201);
    const patched = await world.client.patch(`/api/v1/sessions/${configured.body.id}`, { model: 'also-imaginary' });
    expect([patched.status, patched.body.error?.code]).toEqual([400, 'UNKNOWN_MODEL']);
  });

  it('should let a session set its step limit only within the instance maximum', async () => {
    const tooHigh = await world.client.post(sessions(), { maxSteps: 6 });
    expect([tooHigh.status, tooHigh.body.error?.code]).toEqual([400, 'STEP_LIMIT_TOO_HIGH']);
    const ok = await world.client.post(sessions(), { maxSteps: 5 });
    expect([ok.status, ok.body.maxSteps]).toEqual([201, 5]);
  });

  it('should count the step limit over the whole run, across a pause for approval', async () => {
    const created = await world.client.post(sessions(), { permissionMode: 'approve', maxSteps: 2 });
    expect(created.status).toBe(201);
    const { sessionId, runId } = await startRun(world, 'limits: count my steps', { sessionId: created.body.id });
    const pending = await waitForPendingPermission(world.client, sessionId, runId);
    expect((await world.client.post(`/api/v1/permissions/${pending.id}`, { behavior: 'allow' })).status).toBeLessThan(300);

    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 60_000);
    expect({ status: run.status, code: run.error?.code }).toEqual({ status: 'failed', code: 'STEP_LIMIT' });
    // One request before the pause, one after: the resumed segment did not start counting anew.
    expect(run.usage.requests).toBe(2);
    const events = await allEvents(world.client, sessionId);
    expect(events.filter((e) => e.type === 'message.assistant')).toHaveLength(2);
    // What the provider received is what it documents: no header that only a test server reads.
    expect(ctx.model.requests.length).toBeGreaterThan(0);
    // (the OpenAI SDK's own x-stainless-* headers go to every OpenAI-compatible host alike.)
    for (const r of ctx.model.requests) expect(Object.keys(r.headers).filter((h) => h.startsWith('x-') && !h.startsWith('x-stainless-'))).toEqual([]);
  });
});
