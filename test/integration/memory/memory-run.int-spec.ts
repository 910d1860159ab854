import { commonPrefixLength, parseScenario, renderPrompt, startScriptedModelServer } from '@h/scripted-model';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { allEvents, createRunWorld, RunWorld, ScriptedServer, waitForRunStatus } from '../../support/run-fixtures';

const SUMMARY = '### Changes Made\n- No files changed; the server port (3000) is remembered for later sessions.\n\n### Verification\n- Not run: nothing to build or test.\n\n### Outcome\nThe next session knows the port.';
const FIRST = 'From now on use pnpm for installs. Remember that the server listens on port 3000.';

// Issue 14, point 1, through the API with a real worker and sandbox: the agent remembers in run 1
// (and the message's explicit preference is captured without a tool call); run 2 of the same
// session is told both after its message, and the session keeps its cached prefix (≥ 95 %). After
// the runs the maintenance job merges near-duplicates.
describe('memory in agent runs (scripted model)', () => {
  let model: ScriptedServer;
  let stack: TestStack;
  let world: RunWorld;
  const scenario = parseScenario({
    name: 'memory-two-runs',
    match: { firstUserMessageContains: 'From now on use pnpm' },
    turns: [
      { toolCalls: [{ name: 'remember', arguments: { key: 'Server Port', value: '3000', category: 'fact' } }] },
      { toolCalls: [{ name: 'write_summary', arguments: { summary: SUMMARY } }, { name: 'task_complete', arguments: {} }] },
      { expect: { lastMessageContains: ['[What H remembers', '- Server Port: 3000', 'About the user:', 'From now on use pnpm for installs'] }, text: 'Port 3000, and pnpm.' },
    ],
  });

  beforeAll(async () => {
    model = await startScriptedModelServer({ scenarios: [scenario], demo: false });
    stack = await startStack({ worker: true, env: { DEEPSEEK_BASE_URL: model.url } });
    world = await createRunWorld(stack, 'memoryrun');
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('should remember in run 1, tell it in run 2 after the cached prefix, and merge near-duplicates after the runs', async () => {
    const memories = `/api/v1/workspaces/${world.workspaceId}/memories`;
    for (const content of ['Run the tests against the staging database', 'Run the tests against the staging database.']) {
      expect((await world.client.post(memories, { scope: 'project', key: `note ${content.length}`, content })).status).toBe(201);
    }
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const first = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: FIRST });
    const run1 = await waitForRunStatus(world.client, first.body.id, ['completed', 'failed', 'cancelled']);
    expect([run1.status, model.failures]).toEqual(['completed', []]);

    const listed = (await world.client.get(memories)).body.items as { key: string; content: string; scope: string; category: string; id: string }[];
    expect(listed.find((m) => m.key === 'Server Port')).toMatchObject({ scope: 'project', content: '3000', category: 'fact' });
    const pref = listed.find((m) => m.key.startsWith('pref-'));
    expect(pref).toMatchObject({ key: 'pref-pnpm-installs', scope: 'user', category: 'preference', content: 'From now on use pnpm for installs' });
    const history = await world.client.get(`${memories}/${listed.find((m) => m.key === 'Server Port')?.id}/history`);
    expect(history.body.items).toEqual([expect.objectContaining({ change: 'create', content: '3000', runId: run1.id })]);

    const second = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'Which port does the server use?' });
    const run2 = await waitForRunStatus(world.client, second.body.id, ['completed', 'failed', 'cancelled']);
    expect([run2.status, model.failures]).toEqual(['completed', []]);

    // The memory went out once, as guidance after run 2's message (never in the system prompt).
    const events = await allEvents(world.client, session.body.id);
    const told = events.filter((e) => e.type === 'prompt.guidance' && e.data.memoryIds);
    expect(told).toHaveLength(2); // run 1: the two notes; run 2: what run 1 stored
    const run2Events = events.filter((e) => e.runId === run2.id);
    const toldAt = run2Events.findIndex((e) => e.type === 'prompt.guidance' && e.data.memoryIds);
    expect(toldAt).toBeGreaterThan(run2Events.findIndex((e) => e.type === 'run.started'));
    expect(toldAt).toBeLessThan(run2Events.findIndex((e) => e.type === 'message.assistant'));

    const bodies = model.requests.filter((r) => JSON.stringify(r.body?.messages ?? []).includes('From now on use pnpm')).map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => JSON.stringify(b.messages[0]))).size).toBe(1);
    expect(JSON.stringify(bodies[2].messages[0])).not.toContain('Server Port');
    const prompts = bodies.map((b) => renderPrompt(b));
    for (let i = 1; i < prompts.length; i++) expect(commonPrefixLength(prompts[i - 1], prompts[i]) / prompts[i - 1].length).toBeGreaterThanOrEqual(0.95);

    // Maintenance (queued after each run) merged the two notes into one, the other's value kept in its history.
    const notes = await waitFor('near-duplicates merged', async () => {
      const items = (await world.client.get(`${memories}?q=staging`)).body.items as { id: string }[];
      return items.length === 1 ? items : null;
    }, 30000);
    expect(notes).toHaveLength(1);
  });
});
