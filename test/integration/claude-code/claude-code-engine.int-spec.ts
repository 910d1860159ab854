import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { builtinScenarioDir, loadScenarioFile, parseScenario, startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import type { TestStack } from '../../support/api-harness';
import { waitFor } from '../../support/api-harness';
import {
  allEvents,
  createRunWorld,
  readWorkspaceFile,
  sandboxExec,
  seedWorkspace,
  startIsolatedStack,
  waitForRunStatus,
  type RunWorld,
} from '../../support/run-fixtures';
import { docker } from '../sandbox/sandbox-test-kit';

// The claude-code engine end to end: the REAL @anthropic-ai/claude-code CLI (baked into the
// sandbox image) runs in the workspace's Docker sandbox (network none), reaches H's model gateway
// in the worker over the run's unix socket, and the gateway forwards to the scripted server's
// Anthropic Messages API with the team's key — which the scripted server demands (any other
// x-api-key is a 401), so a completed run proves the key was added on the host. The key must
// never be seen inside the container: not in its environment, not in any process's, not in a file.
const ANTHROPIC_KEY = `sk-ant-h-test-${randomBytes(16).toString('hex')}`;
const PROMPT = 'Fix add() in src/math.js so the test passes.';
const fix = loadScenarioFile(join(builtinScenarioDir(), 'claude-code-fix.json'));

let model: ScriptedModelServer;
let stack: TestStack;

beforeAll(async () => {
  const afresh = parseScenario({
    name: 'claude-code-afresh',
    match: { firstUserMessageContains: 'the workspace sandbox restarted since the last message' },
    turns: [{ expect: { lastMessageRole: 'user', messagesContain: 'Carry on, please.' }, text: 'Starting afresh.' }],
  });
  // The same task, its edit denied: the model reads the denial and answers.
  const deny = parseScenario({
    name: 'claude-code-deny',
    match: { firstUserMessageContains: `${PROMPT} (deny)` },
    turns: [
      fix.turns[0],
      fix.turns[1],
      { expect: { lastMessageRole: 'tool', lastMessageContains: 'not this file' }, text: 'Understood: I left src/math.js as it is.' },
    ],
  });
  model = await startScriptedModelServer({ demo: false, scenarios: [deny, fix, afresh], apiKey: ANTHROPIC_KEY });
  stack = await startIsolatedStack({ ANTHROPIC_BASE_URL: model.origin, CLAUDE_CODE_MODEL: 'claude-sonnet-4-5' });
}, 15 * 60_000);

afterAll(async () => {
  await stack?.close();
  await model?.close();
});

afterEach(() => {
  const failures = [...model.failures];
  model.reset();
  expect(failures).toEqual([]);
});

async function claudeWorld(tag: string, withKey = true): Promise<RunWorld> {
  const world = await createRunWorld(stack, tag);
  if (withKey) expect((await world.client.put(`/api/v1/teams/${world.teamId}/providers/anthropic`, { apiKey: ANTHROPIC_KEY })).status).toBe(200);
  return world;
}

async function startClaudeRun(world: RunWorld, content: string, permissionMode: 'approve' | 'bypass' = 'approve'): Promise<{ sessionId: string; runId: string }> {
  const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { engine: 'claude-code', permissionMode });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ engine: 'claude-code', model: 'claude-sonnet-4-5' });
  const posted = await world.client.post(`/api/v1/sessions/${created.body.id}/messages`, { content });
  expect(posted.status).toBe(202);
  return { sessionId: created.body.id, runId: posted.body.id };
}

async function pendingPermission(world: RunWorld, sessionId: string, runId: string): Promise<any> {
  return waitFor(
    'a pending permission request from Claude Code',
    async () => {
      const run = await world.client.get(`/api/v1/runs/${runId}`);
      if (['completed', 'failed', 'cancelled'].includes(run.body.status)) throw new Error(`run ended (${run.body.status}) instead of asking: ${JSON.stringify(run.body.error)}`);
      const res = await world.client.get(`/api/v1/sessions/${sessionId}/permissions?status=pending`);
      return res.body.items.find((p: any) => p.runId === runId);
    },
    180_000,
  );
}

/** Where a secret could sit inside the container: env of the container and of every process, writable files. */
async function containerSecrets(world: RunWorld, needle: string): Promise<{ containerEnv: boolean; processEnv: string; files: string }> {
  const name = `${stack.sandboxPrefix}ws-${world.workspaceId}`;
  const info = await docker.getContainer(name).inspect();
  const processEnv = await sandboxExec(stack, world, `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null; done | grep -c -F -e '${needle}' || true`);
  const files = await sandboxExec(stack, world, `grep -rlsF -e '${needle}' /workspace /home /tmp /run 2>/dev/null | head -5; true`);
  return { containerEnv: (info.Config.Env ?? []).some((e) => e.includes(needle)), processEnv: processEnv.stdout.trim(), files: files.stdout.trim() };
}

describe('claude-code engine', () => {
  it('should run the real Claude Code CLI in the sandbox: a task completes, the approval round-trips through H, usage is recorded, and the key never enters the container', async () => {
    const world = await claudeWorld('claude');
    await seedWorkspace(stack, world, fix.fixture ?? {});
    const { sessionId, runId } = await startClaudeRun(world, PROMPT);

    // Claude Code read the file without asking (a read in its working directory), then asks for
    // the edit: H's pipeline shows it as a normal permission request, with the diff.
    const permission = await pendingPermission(world, sessionId, runId);
    expect(permission).toMatchObject({ toolName: 'Edit', status: 'pending', input: { file_path: '/workspace/src/math.js', old_string: 'return a - b', new_string: 'return a + b' } });
    // The request row comes first, its event right after.
    const requested = await waitFor('permission.requested', async () => (await allEvents(world.client, sessionId)).find((e) => e.type === 'permission.requested'));
    expect(requested.data).toMatchObject({ permissionId: permission.id, toolName: 'Edit', toolCallId: permission.toolCallId });
    expect(requested.data.preview).toMatchObject({ kind: 'diff', path: 'src/math.js', added: 1, removed: 1 });
    expect(await readWorkspaceFile(stack, world, 'src/math.js')).toContain('return a - b');

    // While Claude Code runs (it waits for the decision): the run's gateway secret is in its
    // environment — so the search below would find a key there — and the team's key is nowhere.
    const secretSeen = await containerSecrets(world, 'h-run-');
    expect(Number(secretSeen.processEnv)).toBeGreaterThan(0);
    expect(await containerSecrets(world, ANTHROPIC_KEY)).toEqual({ containerEnv: false, processEnv: '0', files: '' });

    const decided = await world.client.post(`/api/v1/permissions/${permission.id}`, { behavior: 'allow' });
    expect(decided.status).toBe(200);
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 180_000);
    expect([run.status, run.error]).toEqual(['completed', null]);
    expect(await readWorkspaceFile(stack, world, 'src/math.js')).toContain('return a + b');

    const events = await allEvents(world.client, sessionId);
    const types = events.filter((e) => e.runId === runId).map((e) => e.type);
    expect(types[0]).toBe('message.user');
    expect(types).toContain('run.started');
    expect(types.at(-1)).toBe('run.done');
    const tools = events.filter((e) => e.type === 'tool.start').map((e) => [e.data.name, e.data.category]);
    expect(tools).toEqual([
      ['Read', 'read'],
      ['Edit', 'write'],
    ]);
    const ends = events.filter((e) => e.type === 'tool.end');
    expect(ends.map((e) => [e.data.name, e.data.isError])).toEqual([
      ['Read', false],
      ['Edit', false],
    ]);
    expect(ends[0].data.result).toContain('return a - b');
    expect(types.indexOf('permission.resolved')).toBeGreaterThan(types.indexOf('permission.requested'));
    const texts = events.filter((e) => e.type === 'message.assistant').map((e) => e.data.content);
    expect(texts).toContain('Fixed: add() now returns a + b.');

    // Usage as the gateway saw it: one usage event per model request, cache fields included,
    // totals on run.done and on the run.
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage).toHaveLength(model.requests.filter((r) => r.path === '/v1/messages' && r.status === 200).length);
    expect(usage.length).toBe(3);
    const done = events.at(-1);
    expect(done.data.reply).toBe('Fixed: add() now returns a + b.');
    expect(done.data.usage).toMatchObject({ requests: 3, promptTokens: expect.any(Number), completionTokens: expect.any(Number) });
    expect(done.data.usage.cacheHitTokens).toBeGreaterThan(0); // the 2nd and 3rd requests repeat the 1st as a prefix
    expect(done.data.usage.costUsd).toBeGreaterThan(0);
    expect(run.usage).toEqual(done.data.usage);
    const sum = usage.reduce((n, e) => n + e.data.request.promptTokens, 0);
    expect(done.data.usage.promptTokens).toBe(sum);
    expect(await containerSecrets(world, ANTHROPIC_KEY)).toEqual({ containerEnv: false, processEnv: '0', files: '' });
    // The process ended with the turn.
    const ps = await sandboxExec(stack, world, 'ps -eo args | grep -c "[c]laude -p" || true');
    expect(ps.stdout.trim()).toBe('0');

    // The next message of the session continues Claude Code's conversation (--resume): the model
    // sees the first turn (the scenario's last turn expects it in the request).
    const next = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'What did you change?' });
    expect(next.status).toBe(202);
    const second = await waitForRunStatus(world.client, next.body.id, ['completed', 'failed', 'cancelled'], 180_000);
    expect([second.status, second.error]).toEqual(['completed', null]);
    const last = (await allEvents(world.client, sessionId)).at(-1);
    expect(last).toMatchObject({ type: 'run.done', runId: next.body.id, data: { reply: 'I changed src/math.js: add() returned a - b and now returns a + b.' } });
    expect(model.requests.at(-1)?.turn).toBe(3);

    // A sandbox restart loses Claude Code's transcript (its $HOME is a tmpfs): the next turn says
    // so and goes on in a new conversation instead of failing.
    await docker.getContainer(`${stack.sandboxPrefix}ws-${world.workspaceId}`).restart({ t: 2 });
    const third = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Carry on, please.' });
    const afterRestart = await waitForRunStatus(world.client, third.body.id, ['completed', 'failed', 'cancelled'], 180_000);
    expect([afterRestart.status, afterRestart.error]).toEqual(['completed', null]);
    expect((await allEvents(world.client, sessionId)).at(-1).data.reply).toBe('Starting afresh.');
  });

  it('should kill Claude Code when the run is cancelled while it waits for a decision', async () => {
    const world = await claudeWorld('claude-cancel');
    await seedWorkspace(stack, world, fix.fixture ?? {});
    const { sessionId, runId } = await startClaudeRun(world, PROMPT);
    const permission = await pendingPermission(world, sessionId, runId);
    const alive = await sandboxExec(stack, world, 'ps -eo args | grep -c "[c]laude -p" || true');
    expect(Number(alive.stdout.trim())).toBeGreaterThan(0);
    expect((await world.client.post(`/api/v1/runs/${runId}/cancel`, {})).status).toBeLessThan(300);
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(run.status).toBe('cancelled');
    await waitFor('Claude Code gone from the container', async () => (await sandboxExec(stack, world, 'ps -eo args | grep -c "[c]laude -p\\|[s]ocat TCP-LISTEN" || true')).stdout.trim() === '0', 30_000);
    const late = await world.client.post(`/api/v1/permissions/${permission.id}`, { behavior: 'allow' });
    expect(late.status).toBe(409);
    expect(await readWorkspaceFile(stack, world, 'src/math.js')).toContain('return a - b');
  });

  it('should hand a denial back to Claude Code: the edit never happens and the turn ends on the model\'s answer', async () => {
    const world = await claudeWorld('claude-deny');
    await seedWorkspace(stack, world, fix.fixture ?? {});
    const { sessionId, runId } = await startClaudeRun(world, `${PROMPT} (deny)`);
    const permission = await pendingPermission(world, sessionId, runId);
    expect((await world.client.post(`/api/v1/permissions/${permission.id}`, { behavior: 'deny', message: 'not this file' })).status).toBe(200);
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 180_000);
    expect(run.status).toBe('completed');
    const edit = (await allEvents(world.client, sessionId)).find((e) => e.type === 'tool.end' && e.data.name === 'Edit');
    expect(edit.data.isError).toBe(true);
    expect(edit.data.result).toContain('not this file');
    expect(await readWorkspaceFile(stack, world, 'src/math.js')).toContain('return a - b');
  });

  it("should refuse model requests past the session's step limit at the gateway, failing the turn", async () => {
    const world = await claudeWorld('claude-limit');
    await seedWorkspace(stack, world, fix.fixture ?? {});
    const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { engine: 'claude-code', permissionMode: 'bypass', maxSteps: 1 });
    const posted = await world.client.post(`/api/v1/sessions/${created.body.id}/messages`, { content: PROMPT });
    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'], 180_000);
    // One request reached the model; the second was refused by H before it left the host.
    expect(model.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(1);
    expect(run.usage.requests).toBe(1);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('ENGINE_FAILED');
    expect(run.error.message).toContain('model requests');
    // bypass: the Read ran without any permission request
    expect((await world.client.get(`/api/v1/sessions/${created.body.id}/permissions`)).body.items).toEqual([]);
  });

  it('should fail the run with PROVIDER_KEY_MISSING when the team has no Anthropic key, without starting Claude Code', async () => {
    const world = await claudeWorld('claude-nokey', false);
    const { sessionId, runId } = await startClaudeRun(world, PROMPT);
    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('PROVIDER_KEY_MISSING');
    // The message names the section of the settings where an admin adds the key, and the event
    // names it for the console's link.
    expect(run.error.message).toMatch(/Settings → Anthropic API key/);
    expect((await allEvents(world.client, sessionId)).at(-1)).toEqual(expect.objectContaining({ type: 'run.failed', data: expect.objectContaining({ settings: 'anthropicKey' }) }));
    expect(model.requests).toHaveLength(0);
  });
});
