import { join } from 'node:path';
import { builtinScenarioDir, loadScenarioFile } from '@h/scripted-model';
import { HttpClient } from '../../support/http-client';
import { createRunWorld, readWorkspaceFile, RunWorld, scenario, finishTurn, seedWorkspace, useScriptedRunStack } from '../../support/run-fixtures';
import { bearerClient, createToken } from '../api/team-fixture';

// The bot API (issue 11 point 2) against a real api + worker + sandbox, with the scripted model:
// one call makes a session and its first run, a long poll waits for the outcome, and the result
// carries the summary, the diff of the run's changes and its usage.

const FIX_PROMPT = 'The failing test in test/math.test.js needs fixing.';
const fixScenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));
const askScenario = scenario('bot-ask-once', 'bot: one command to approve', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved-by-bot' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'approved-by-bot' }),
]);

async function tokenClient(ctxUrl: string, world: RunWorld, scopes: string[]): Promise<HttpClient> {
  const token = await createToken({ client: world.client, email: '', userId: world.userId }, world.teamId, { name: `bot ${scopes.join('+')}`, scopes });
  return bearerClient(ctxUrl, token.secret);
}

/** Long-polls until the run is no longer queued or running (each call waits up to 60 s). */
async function waitForOutcome(client: HttpClient, runId: string): Promise<any> {
  for (let i = 0; i < 5; i++) {
    const res = await client.get(`/api/v1/runs/${runId}?wait=60`);
    expect(res.status).toBe(200);
    if (res.body.pendingPermission || ['completed', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
  }
  throw new Error(`run ${runId} did not settle within five long polls`);
}

describe('bot API: one-call runs, long poll, results with summary, diff and usage', () => {
  const ctx = useScriptedRunStack([fixScenario, askScenario]);

  it('should fix the sample repository in one call, answer a retried clientRunId with the same run, and report summary, diff and usage', async () => {
    const world = await createRunWorld(ctx.stack, 'bot-fix');
    await seedWorkspace(ctx.stack, world, fixScenario.fixture ?? {});
    const bot = await tokenClient(ctx.stack.url, world, ['read', 'write']);

    const body = { prompt: FIX_PROMPT, mode: 'bypass', clientRunId: 'ci-42-attempt-1', title: 'CI: fix the test' };
    const created = await bot.post(`/api/v1/workspaces/${world.workspaceId}/runs`, body);
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ workspaceId: world.workspaceId, title: 'CI: fix the test', clientMessageId: 'ci-42-attempt-1', pendingPermission: null });
    expect(['queued', 'running']).toContain(created.body.status);
    const again = await bot.post(`/api/v1/workspaces/${world.workspaceId}/runs`, body);
    expect(again.status).toBe(202);
    expect([again.body.id, again.body.sessionId]).toEqual([created.body.id, created.body.sessionId]);
    const sessions = await world.client.get(`/api/v1/workspaces/${world.workspaceId}/sessions`);
    expect(sessions.body.items.map((s: any) => [s.id, s.permissionMode])).toEqual([[created.body.sessionId, 'bypass']]);

    const result = await waitForOutcome(bot, created.body.id);
    expect(result.status).toBe('completed');
    expect(await readWorkspaceFile(ctx.stack, world, 'src/math.js')).toContain('return a + b;');
    expect(result.summary).toContain('`add(a, b)` returned `a - b`; it now returns `a + b`');
    expect(result.changes).toEqual([expect.objectContaining({ kind: 'modify', path: 'src/math.js', added: 1, removed: 1 })]);
    expect(result.diff).toContain('diff --git a/src/math.js b/src/math.js\n--- a/src/math.js\n+++ b/src/math.js\n');
    expect(result.diff).toContain('-  return a - b;\n+  return a + b;\n');
    expect(result.diffTruncated).toBe(false);
    // Usage is the run's own, the sum of the provider's five answers.
    expect(result.usage.requests).toBe(5);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    const run = await bot.get(`/api/v1/runs/${created.body.id}`);
    expect(run.body.usage).toEqual(result.usage);

    const diff = await bot.get(`/api/v1/runs/${created.body.id}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get('content-type')).toMatch(/^text\/x-diff/);
    expect(diff.text).toBe(result.diff);

    // A finished run answers a long poll at once, as it is. (A poll woken by the run's end reads
    // the end time from the logged event, a few ms before the row's.)
    const settled = await bot.get(`/api/v1/runs/${created.body.id}?wait=60`);
    expect(settled.body).toEqual({ ...result, finishedAt: settled.body.finishedAt });

    const all = await bot.get(`/api/v1/workspaces/${world.workspaceId}/runs`);
    expect(all.body.items).toEqual([expect.objectContaining({ id: created.body.id, status: 'completed', title: 'CI: fix the test', summary: result.summary })]);
    expect((await bot.get(`/api/v1/workspaces/${world.workspaceId}/runs?status=active`)).body.items).toEqual([]);
    expect((await bot.get(`/api/v1/workspaces/${world.workspaceId}/runs?status=completed&limit=1`)).body.items.map((r: any) => r.id)).toEqual([created.body.id]);
  });

  it('should end the long poll when the run waits on a permission, with the request, and go on once it is answered', async () => {
    const world = await createRunWorld(ctx.stack, 'bot-ask');
    const bot = await tokenClient(ctx.stack.url, world, ['read', 'write']);
    const created = await bot.post(`/api/v1/workspaces/${world.workspaceId}/runs`, { prompt: 'bot: one command to approve' });
    expect(created.status).toBe(202);

    const waiting = await waitForOutcome(bot, created.body.id);
    expect(waiting.status).toBe('waiting_permission');
    expect(waiting.pendingPermission).toMatchObject({ runId: created.body.id, toolName: 'run_command', input: { command: 'echo approved-by-bot' }, status: 'pending' });
    expect((await bot.get(`/api/v1/workspaces/${world.workspaceId}/runs?status=waiting_permission`)).body.items.map((r: any) => r.id)).toEqual([created.body.id]);

    const allowed = await bot.post(`/api/v1/permissions/${waiting.pendingPermission.id}`, { behavior: 'allow' });
    expect(allowed.status).toBe(200);
    // Answered, the run no longer counts as settled (even before its resume is admitted).
    const done = await waitForOutcome(bot, created.body.id);
    expect(done.status).toBe('completed');
    expect(done.pendingPermission).toBeNull();
    expect(done.changes).toEqual([]);
    expect(done.diff).toBe('');
  });

  it('should take a preset by name, refuse a preset with a model, an unknown preset, a long wait and a read-only token, and hide runs from other teams', async () => {
    const world = await createRunWorld(ctx.stack, 'bot-rules');
    const preset = await world.client.post(`/api/v1/teams/${world.teamId}/model-presets`, { name: 'deep', model: 'deepseek-v4-pro', thinking: true });
    expect(preset.status).toBe(201);
    const bot = await tokenClient(ctx.stack.url, world, ['read', 'write']);
    const url = `/api/v1/workspaces/${world.workspaceId}/runs`;

    const both = await bot.post(url, { prompt: 'x', preset: 'deep', model: 'deepseek-v4-flash' });
    expect([both.status, both.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await bot.post(url, { prompt: 'x', preset: 'nope' });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'UNKNOWN_PRESET']);
    expect(unknown.body.error.message).toContain('"deep"');
    const model = await bot.post(url, { prompt: 'x', model: 'no-such-model' });
    expect([model.status, model.body.error.code]).toEqual([400, 'UNKNOWN_MODEL']);
    // None of the refusals left a session behind.
    expect((await world.client.get(`/api/v1/workspaces/${world.workspaceId}/sessions`)).body.items).toEqual([]);

    const reader = await tokenClient(ctx.stack.url, world, ['read']);
    expect((await reader.post(url, { prompt: 'x' })).status).toBe(403);

    const made = await bot.post(url, { prompt: 'bot: one command to approve', preset: 'deep' });
    expect(made.status).toBe(202);
    const session = await world.client.get(`/api/v1/sessions/${made.body.sessionId}`);
    expect([session.body.model, session.body.thinking, session.body.permissionMode]).toEqual(['deepseek-v4-pro', true, 'approve']);
    expect((await bot.get(`/api/v1/runs/${made.body.id}?wait=61`)).status).toBe(400);
    expect((await reader.get(`/api/v1/runs/${made.body.id}/diff`)).status).toBe(200);

    const other = await createRunWorld(ctx.stack, 'bot-other');
    const stranger = await tokenClient(ctx.stack.url, other, ['read', 'write']);
    expect((await stranger.post(url, { prompt: 'x' })).status).toBe(404);
    expect((await stranger.get(url)).status).toBe(404);
    expect((await stranger.get(`/api/v1/runs/${made.body.id}?wait=1`)).status).toBe(404);
    expect((await stranger.get(`/api/v1/runs/${made.body.id}/diff`)).status).toBe(404);
    // The same clientRunId in another workspace is another run.
    const mine = await stranger.post(`/api/v1/workspaces/${other.workspaceId}/runs`, { prompt: 'bot: one command to approve', clientRunId: 'shared-id' });
    const theirs = await bot.post(url, { prompt: 'bot: one command to approve', clientRunId: 'shared-id' });
    expect(mine.status).toBe(202);
    expect(theirs.status).toBe(202);
    expect(mine.body.sessionId).not.toBe(theirs.body.sessionId);

    // Leave nothing for the scripted model to miss: cancel what is still going.
    for (const [client, id] of [[bot, made.body.id], [stranger, mine.body.id], [bot, theirs.body.id]] as const) {
      await waitForOutcome(client, id);
      await client.post(`/api/v1/runs/${id}/cancel`);
    }
  });
});
