import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { builtinScenarioDir, loadScenarioFile, startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { removeSandboxes, startStack, waitFor, type TestStack } from '../../support/api-harness';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { createRunWorld, finishTurn, scenario, type RunWorld } from '../../support/run-fixtures';
import { ensureServerBuild, startApiOnPort, startWorkerProcess, type WorkerProcess } from '../../support/worker-process';
import { SLOW } from '../crash/crash-kit';
import { recordSecrets } from '../security/secret-registry';
import { basicAuth, H2cClient } from './h2c-client';

// Issue 11, point 1: an existing h2c client (Hermes) pointed at H. Black box over real HTTP with
// Basic auth against the api and the BUILT worker as processes of their own (the worker a child
// process, so it can be killed; the api closed and started again on its port), like test/integration/crash.

const TASK_ID = /^task_[0-9a-f]{32}$/;
/** The main story's scenario (a scenario file, like the IDE's): its summary is the task's result. */
const STORY = loadScenarioFile(join(builtinScenarioDir(), 'h2c-task.json'));
const STORY_RESULT = (STORY.turns[1].toolCalls?.[0].arguments as { summary: string }).summary;
const slowSummary = (n: string) => `### Changes Made\n- \`slow.txt\`: appended ${n}.\n\n### Verification\n- Ran the echo: exit 0.\n\n### Outcome\nSlow task ${n} done.`;

async function tokenOf(world: RunWorld, body: Record<string, unknown> = {}): Promise<string> {
  const res = await world.client.post(`/api/v1/teams/${world.teamId}/tokens`, { name: 'hermes', scopes: ['read', 'write'], ...body });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
  // The log scan (test/integration/security/log-scan) looks for it in every log, Basic headers included.
  recordSecrets(res.body.secret);
  return res.body.secret;
}

function expectTaskShape(task: any): void {
  expect(task).toEqual({
    id: expect.stringMatching(TASK_ID),
    status: expect.any(String),
    result: task.result === null ? null : expect.any(String),
    exitCode: task.exitCode === null ? null : expect.any(Number),
    usage: {
      total_cost_usd: expect.any(Number),
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      cache_creation_input_tokens: expect.any(Number),
      cache_read_input_tokens: expect.any(Number),
    },
    queue_position: task.queue_position === null ? null : expect.any(Number),
  });
}

describe('h2c task endpoints, as an h2c client uses them', () => {
  let model: ScriptedModelServer;
  let stack: TestStack;
  let api: NestExpressApplication;
  let worker: WorkerProcess;
  let world: RunWorld;
  let h2c: H2cClient;
  let dropDatabase: () => Promise<void>;
  let wsName: string;

  beforeAll(async () => {
    ensureServerBuild();
    model = await startScriptedModelServer({
      scenarios: [
        STORY,
        // Waits for approval of its command until cancelled.
        scenario('h2c-cancel', 'h2c cancel:', [{ expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo never' } }] }]),
        // Slow turns, no approvals: long enough to restart both processes in the middle.
        ...['one', 'two', 'three'].map((n) =>
          scenario(`h2c-slow-${n}`, `h2c slow ${n}:`, [
            { expect: { lastMessageRole: 'user' }, fault: SLOW, thinking: 'Record it.', toolCalls: [{ name: 'run_command', arguments: { command: `echo ${n} >> slow.txt` } }] },
            { ...finishTurn({ lastMessageRole: 'tool' }, slowSummary(n)), fault: SLOW },
          ]),
        ),
      ],
      demo: false,
    });
    const database = await createIsolatedDatabase('h2c');
    dropDatabase = () => database.drop();
    // One run at a time per workspace, so the queue (h2c's maxConcurrent) is visible.
    stack = await startStack({ env: { DATABASE_URL: database.url, DEEPSEEK_BASE_URL: model.url, RUN_LOCK_MS: '3000', RUNS_PER_WORKSPACE: '1' } });
    api = stack.api;
    worker = await startWorkerProcess(stack.config);
    world = await createRunWorld(stack, 'hermes');
    wsName = (await world.client.get(`/api/v1/workspaces/${world.workspaceId}`)).body.name;
    h2c = new H2cClient(stack.url, basicAuth(await tokenOf(world)));
  }, 600_000);

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    if (stack) await removeSandboxes(stack.sandboxPrefix);
    await model?.close();
    await dropDatabase?.();
  });

  it('should answer GET /health with {"status":"ok"} without credentials', async () => {
    const res = await fetch(`${stack.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"status":"ok"}');
    // H's own health route keeps its place under /api.
    expect((await fetch(`${stack.url}/api/health`)).status).toBe(200);
  });

  let doneTaskId: string;

  it('should run a task: create → stream → a permission request answered allow → done, and output from pending to success', async () => {
    const created = await h2c.create({ prompt: 'h2c task: write a greeting to greeting.txt', cwd: `/home/hermes/${wsName}` });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ task_id: expect.stringMatching(TASK_ID), status: 'created' });
    const taskId: string = created.body.task_id;
    doneTaskId = taskId;

    const first = await h2c.output(taskId);
    expect(first.status).toBe(200);
    expect(first.body.retrieval_status).toBe('pending');
    expectTaskShape(first.body.task);
    expect(['queued', 'running']).toContain(first.body.task.status);
    expect(first.body.task.exitCode).toBeNull();

    const answers: any[] = [];
    const { status, frames, contentType } = await h2c.stream(`task_id=${taskId}`, async (frame) => {
      if (frame.type !== 'permission_request') return;
      // While it waits, the task is still pending for h2c.
      expect((await h2c.output(taskId)).body.retrieval_status).toBe('pending');
      answers.push(await h2c.permission({ task_id: taskId, behavior: 'allow' }));
    });
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(frames[0]).toEqual({ type: 'connected', taskId });
    const request = frames.find((f) => f.type === 'permission_request');
    expect(request).toEqual({
      type: 'permission_request',
      task_id: taskId,
      request_id: expect.any(String),
      tool_name: 'run_command',
      input: { command: 'echo hello from h2c > greeting.txt' },
      tool_use_id: expect.any(String),
    });
    expect(answers.map((a) => [a.status, a.body])).toEqual([[200, { task_id: taskId, request_id: request.request_id, behavior: 'allow' }]]);
    expect(frames.filter((f) => f.type === 'chunk').map((f) => f.text)).toEqual(['Writing the greeting.', 'Greeting written to greeting.txt.']);
    expect(frames.filter((f) => f.type === 'tool_progress' && f.tool_name === 'run_command').map((f) => f.phase)).toEqual(['started', 'finished']);
    expect(frames.at(-1)).toEqual({ type: 'done', exitCode: 0 });

    const output = await waitFor('output success', async () => {
      const res = await h2c.output(taskId);
      return res.body.retrieval_status === 'success' ? res : null;
    });
    expectTaskShape(output.body.task);
    // The result is the agent's final reply, or (as here, text beside tool calls is no final reply) its summary.
    expect(output.body.task).toMatchObject({ id: taskId, status: 'done', result: STORY_RESULT, exitCode: 0, queue_position: null });
    expect(output.body.task.usage.input_tokens + output.body.task.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(output.body.task.usage.output_tokens).toBeGreaterThan(0);
    // GET /v1/task (and with a trailing slash) answers the task itself.
    for (const slash of [false, true]) {
      const task = await h2c.task(taskId, slash);
      expect([task.status, task.body]).toEqual([200, output.body.task]);
    }

    // The task is an H session: the IDE lists it, with the approval and the command in its log.
    const sessions = (await world.client.get(`/api/v1/workspaces/${world.workspaceId}/sessions`)).body.items;
    const session = sessions.find((s: any) => s.title.startsWith('h2c task:'));
    expect(session?.latestRun?.status).toBe('completed');
    const events = (await world.client.get(`/api/v1/sessions/${session.id}/events?after=0&limit=500`)).body.items.map((e: any) => e.type);
    expect(events).toEqual(expect.arrayContaining(['permission.requested', 'permission.resolved', 'run.done']));

    // A reconnect replays the whole task from the log: the same frames again, but for the request
    // answered meanwhile, which is not asked again.
    const replay = await h2c.stream(`id=${taskId}`);
    expect(replay.frames).toEqual(frames.filter((f) => f.type !== 'permission_request'));
    // Nothing is waiting any more.
    const again = await h2c.permission({ task_id: taskId, behavior: 'allow' });
    expect([again.status, again.body.error]).toEqual([409, 'no_pending_request']);
  }, 180_000);

  it("should let the IDE answer an h2c task's permission request, and the h2c stream go on to done", async () => {
    const { body } = await h2c.create({ prompt: 'h2c task: answered in the IDE', cwd: wsName });
    const taskId: string = body.task_id;
    const watching = new AbortController();
    const seen = await h2c.stream(`task_id=${taskId}`, (f) => (f.type === 'permission_request' ? watching.abort() : undefined), watching.signal);
    const request = seen.frames.at(-1);
    // A team member decides in the browser, on the same request (the IDE's route, cookie and CSRF).
    const decided = await world.client.post(`/api/v1/permissions/${request.request_id}`, { behavior: 'allow' });
    expect(decided.status).toBe(200);
    const { frames } = await h2c.stream(`task_id=${taskId}`);
    expect(frames.at(-1)).toEqual({ type: 'done', exitCode: 0 });
    expect((await h2c.output(taskId)).body.task).toMatchObject({ status: 'done', exitCode: 0, result: STORY_RESULT });
    const late = await h2c.permission({ task_id: taskId, behavior: 'deny' });
    expect([late.status, late.body.error]).toEqual([409, 'no_pending_request']);
  }, 120_000);

  it('should cancel a task waiting for approval, and refuse a second cancel', async () => {
    const { body } = await h2c.create({ prompt: 'h2c cancel: try a command', cwd: wsName });
    const taskId: string = body.task_id;
    // The stream goes live until the request arrives; the client hangs up then.
    const watching = new AbortController();
    const seen = await h2c.stream(`task_id=${taskId}`, (f) => (f.type === 'permission_request' ? watching.abort() : undefined), watching.signal);
    expect(seen.frames.at(-1)).toMatchObject({ type: 'permission_request', task_id: taskId, tool_name: 'run_command' });
    const cancelled = await h2c.cancel(taskId);
    expect([cancelled.status, cancelled.body]).toEqual([200, { task_id: taskId, status: 'cancelled' }]);
    const output = await h2c.output(taskId);
    expect(output.body).toMatchObject({ retrieval_status: 'success', task: { id: taskId, status: 'cancelled', exitCode: 130 } });
    const { frames } = await h2c.stream(`task_id=${taskId}`);
    expect(frames.slice(-2)).toEqual([{ type: 'error', reason: 'cancelled' }, { type: 'done', exitCode: 130 }]);
    const twice = await h2c.cancel(taskId);
    expect([twice.status, twice.body.error]).toEqual([409, 'task_finished']);
  }, 120_000);

  it('should answer not_found for unknown task ids and h2c error codes for bad requests', async () => {
    const unknown = 'task_00000000000000000000000000000000';
    const answers = [
      await h2c.output(unknown),
      await h2c.task(unknown),
      await h2c.cancel(unknown),
      await h2c.permission({ task_id: unknown, behavior: 'allow' }),
      (await h2c.stream(`task_id=${unknown}`)) as any,
    ];
    expect(answers.map((a) => [a.status, a.body?.error ?? a.frames?.[0]?.error])).toEqual(Array(5).fill([404, 'not_found']));
    const missing = await h2c.request('GET', '/v1/task/output');
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
    const badMode = await h2c.create({ prompt: 'x', permission_mode: 'yolo', cwd: wsName });
    expect([badMode.status, badMode.body.error]).toEqual([400, 'invalid_request']);
    const badJson = await fetch(`${stack.url}/v1/task/create`, { method: 'POST', headers: { authorization: basicAuth(await tokenOf(world)), 'content-type': 'application/json' }, body: '{"prompt":' });
    expect([badJson.status, (await badJson.json()).error]).toEqual([400, 'invalid_request']);
    const noWorkspace = await h2c.create({ prompt: 'h2c task: nowhere', cwd: '/home/hermes/no-such-project' });
    expect([noWorkspace.status, noWorkspace.body.error]).toEqual([400, 'workspace_required']);
  });

  it("should refuse another team's token, a wrong token and no token", async () => {
    const other = await createRunWorld(stack, 'othercrew');
    const outsider = new H2cClient(stack.url, basicAuth(await tokenOf(other)));
    const seen = await outsider.output(doneTaskId);
    expect([seen.status, seen.body.error]).toEqual([404, 'not_found']);
    const cancel = await outsider.cancel(doneTaskId);
    expect([cancel.status, cancel.body.error]).toEqual([404, 'not_found']);
    // Its own tasks go to its own workspace; ours is not one of them.
    const elsewhere = await outsider.create({ prompt: 'h2c task: not yours', cwd: world.workspaceId });
    expect([elsewhere.status, elsewhere.body.error]).toEqual([400, 'workspace_required']);
    for (const auth of [null, basicAuth('h_000000000000_0000000000000000000000000000000000000000000'), 'Basic bm90LWEtdG9rZW4=']) {
      const res = await new H2cClient(stack.url, auth).output(doneTaskId);
      expect([res.status, res.body.error]).toEqual([401, 'unauthorized']);
    }
    // Bearer works as well as Basic; Basic is not accepted on H's own routes.
    const token = await tokenOf(world);
    const bearer = await new H2cClient(stack.url, `Bearer ${token}`).output(doneTaskId);
    expect(bearer.body.task.status).toBe('done');
    const basicOnApi = await fetch(`${stack.url}/api/v1/teams`, { headers: { authorization: basicAuth(token) } });
    expect(basicOnApi.status).toBe(401);
    // A workspace-bound token picks its workspace itself and ignores cwd; a read token cannot create.
    const bound = new H2cClient(stack.url, basicAuth(await tokenOf(world, { workspaceId: world.workspaceId })));
    expect((await bound.output(doneTaskId)).body.task.status).toBe('done');
    const reader = new H2cClient(stack.url, basicAuth(await tokenOf(world, { scopes: ['read'] })));
    const refused = await reader.create({ prompt: 'h2c task: read only', cwd: wsName });
    expect([refused.status, refused.body.error]).toEqual([403, 'insufficient_scope']);
    expect(refused.body.message).toContain('the run scope');
  });

  it('should queue tasks past maxConcurrent, survive a restart of api and worker in the middle, and still answer output after it', async () => {
    const one = (await h2c.create({ prompt: 'h2c slow one: record one', permission_mode: 'bypass', cwd: wsName })).body.task_id;
    const two = (await h2c.create({ prompt: 'h2c slow two: record two', skip_permissions: true, cwd: wsName })).body.task_id;
    // RUNS_PER_WORKSPACE=1 here: the second waits in line, with its place shown.
    const queued = await h2c.task(two);
    expect(queued.body).toMatchObject({ status: 'queued', queue_position: 1, exitCode: null });
    await waitFor('task one to run', async () => (await h2c.task(one)).body.status === 'running', 60_000);
    await waitFor('the model to stream task one', async () => model.requests.some((r) => r.firstUserMessage?.includes('h2c slow one:') && r.outcome === 'pending'), 60_000);

    const port = Number(new URL(stack.url).port);
    await api.close();
    await worker.kill();
    worker = await startWorkerProcess(stack.config);
    api = await startApiOnPort(stack.config, port);

    // Right after the restart the earlier task still answers, and the interrupted ones go on.
    const earlier = await h2c.output(doneTaskId);
    expect(earlier.body).toMatchObject({ retrieval_status: 'success', task: { status: 'done', result: STORY_RESULT, exitCode: 0 } });
    for (const [id, n] of [[one, 'one'], [two, 'two']]) {
      const output = await waitFor(`task ${n} to finish`, async () => {
        const res = await h2c.output(id);
        expect(res.status).toBe(200);
        return res.body.retrieval_status === 'success' ? res.body : null;
      }, 180_000);
      expectTaskShape(output.task);
      expect(output.task).toMatchObject({ id, status: 'done', exitCode: 0, result: slowSummary(n) });
    }
    expect(model.failures).toEqual([]);
  }, 420_000);
});
