import { loadScenarioFile, builtinScenarioDir, parseScenario, startScriptedModelServer } from '@h/scripted-model';
import { join } from 'node:path';
import { startStack, TestStack } from '../../support/api-harness';
import { allEvents, createRunWorld, readWorkspaceFile, RunWorld, ScriptedServer, seedWorkspace, waitForRunStatus } from '../../support/run-fixtures';

describe('agent runs through the API (scripted model, real sandbox)', () => {
  let model: ScriptedServer;
  let stack: TestStack;
  let world: RunWorld;
  const scenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));
  // The scripted model answers only if the requests carry the workspace context (else the run fails).
  const context = parseScenario({
    name: 'workspace-context',
    match: { firstUserMessageContains: 'Follow the house rules' },
    turns: [
      { expect: { messagesContain: ['## AGENTS.md\nCommit messages are in English.', '[Workspace file tree] 2 files', 'src/\n  app.js'] }, text: 'Read the rules.' },
      { expect: { lastMessageContains: ['## AGENTS.md (updated)\nCommit messages are in Latin.', '+ src/added.js'] }, text: 'Saw the changes.' },
    ],
  });

  beforeAll(async () => {
    model = await startScriptedModelServer({ scenarios: [scenario, context], demo: false });
    stack = await startStack({ worker: true, env: { DEEPSEEK_BASE_URL: model.url } });
    world = await createRunWorld(stack, 'agentrun');
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('should fix a failing test inside the workspace container and record every step in order', async () => {
    await seedWorkspace(stack, world, scenario.fixture ?? {});
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    expect(session.status).toBe(201);

    const posted = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, {
      content: 'The failing test in test/math.test.js needs fixing.',
    });
    expect(posted.status).toBe(202);
    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect(model.failures).toEqual([]);
    expect(run.status).toBe('completed');
    expect(run.usage.requests).toBe(5);

    expect(await readWorkspaceFile(stack, world, 'src/math.js')).toContain('return a + b;');
    const events = await allEvents(world.client, session.body.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('message.user');
    expect(types.at(-1)).toBe('run.done');
    const testRuns = events.filter((e) => e.type === 'tool.end' && e.data.name === 'run_command');
    expect(testRuns.at(-1).data.result).toContain('all tests passed');

    const state = await world.client.get(`/api/v1/sessions/${session.body.id}/state`);
    expect(state.body.summary).toContain('### Changes Made');
    expect(state.body.activeRunId).toBeNull();
    const titled = await world.client.get(`/api/v1/sessions/${session.body.id}`);
    expect(titled.body.title).toBe('The failing test in test/math.test.js needs fixing.');
    // The session list carries each session's newest run, so a UI needs no request per session.
    const listed = await world.client.get(`/api/v1/workspaces/${world.workspaceId}/sessions`);
    expect(listed.body.items.find((s: { id: string }) => s.id === session.body.id).latestRun).toEqual({ id: run.id, status: 'completed' });
  });

  it("should tell the model the workspace's instructions and file tree, then only what changed on the next message", async () => {
    // A workspace of its own: the first test's files would be in its tree.
    const world = await createRunWorld(stack, 'agentctx');
    await seedWorkspace(stack, world, { 'AGENTS.md': 'Commit messages are in English.\n', 'src/app.js': 'console.log(1);\n' });
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const first = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'Follow the house rules, please.' });
    expect((await waitForRunStatus(world.client, first.body.id, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    expect(model.failures).toEqual([]);

    await seedWorkspace(stack, world, { 'AGENTS.md': 'Commit messages are in Latin.\n', 'src/added.js': '' });
    const second = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'I changed a few things.' });
    expect((await waitForRunStatus(world.client, second.body.id, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    expect(model.failures).toEqual([]);
    // The second run's context is a patch, not the whole tree again.
    const guidance = (await allEvents(world.client, session.body.id)).filter((e) => e.type === 'prompt.guidance' && e.data.workspaceContext);
    expect(guidance.map((e) => e.data.workspaceContext.tree?.mode)).toEqual(['full', 'patch']);
  });
});
