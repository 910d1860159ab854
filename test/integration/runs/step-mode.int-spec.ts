import { parseScenario, startScriptedModelServer, type Scenario, type ScenarioTurn, type ScriptedModelServer } from '@h/scripted-model';
import { startStack, waitFor, type TestStack } from '../../support/api-harness';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { allEvents, createRunWorld, waitForRunStatus, type RunWorld } from '../../support/run-fixtures';
import { ensureServerBuild, startWorkerProcess, type WorkerProcess } from '../../support/worker-process';
import { bearerClient, createToken, errorCode } from '../api/team-fixture';
import { logProblems, workspaceFiles } from '../crash/crash-kit';

// Step-by-step mode (issue 12, point 4) against the real api, the BUILT worker and the scripted
// model: the plan is written with write_todos only, validated and locked (step.plan); each step is
// one code-writer sub-agent (a child run) that sees its step and the earlier results; a failing
// step does not stop the next; a stop asked for while a step runs ends the run after that step.

const CODE_WRITER = "You are H's Code Writer Agent";
const FINISHED = ['completed', 'failed', 'cancelled'];
const todos = (...contents: string[]) => ({ todos: contents.map((content) => ({ content, status: 'pending' })) });

const STEPS = ['STEPMODE-3 alpha: write alpha.txt containing the letter A', 'STEPMODE-3 beta: write beta.txt containing the letter B', 'STEPMODE-3 gamma: write gamma.txt containing the letter C'];

const threeSteps = parseScenario({
  name: 'stepmode-three',
  match: { firstUserMessageContains: 'STEPMODE-3' },
  turns: [
    {
      expect: { lastMessageRole: 'user', toolsInclude: ['write_todos'], messagesContain: 'Step-by-step mode: do not do the task now.' },
      toolCalls: [{ name: 'write_todos', arguments: todos(...STEPS) }],
    },
  ],
  agents: [
    {
      name: 'alpha',
      match: { systemContains: CODE_WRITER, taskContains: 'step 1 of 3' },
      turns: [
        { expect: { lastMessageRole: 'user', lastMessageContains: STEPS[0] }, toolCalls: [{ name: 'write_file', arguments: { path: 'alpha.txt', content: 'A\n' } }] },
        { expect: { lastMessageRole: 'tool' }, text: 'Wrote alpha.txt with the letter A.' },
      ],
    },
    {
      // The provider refuses this sub-agent's request for good: its run fails (CONTEXT_TOO_LONG).
      name: 'beta',
      match: { systemContains: CODE_WRITER, taskContains: 'step 2 of 3' },
      turns: [{ fault: { type: 'context_length' }, text: 'never sent' }],
    },
    {
      name: 'gamma',
      match: { systemContains: CODE_WRITER, taskContains: 'step 3 of 3' },
      turns: [
        {
          expect: { lastMessageRole: 'user', messagesContain: ['Wrote alpha.txt with the letter A.', '— failed:', 'CONTEXT_TOO_LONG'] },
          toolCalls: [{ name: 'write_file', arguments: { path: 'gamma.txt', content: 'C\n' } }],
        },
        { expect: { lastMessageRole: 'tool' }, text: 'Wrote gamma.txt with the letter C; beta.txt was left to the failed step.' },
      ],
    },
  ],
});

/** A two-step plan (marker `STEPMODE-<NAME>`): its planning turn and each step's sub-agent script. */
function twoSteps(name: string, steps: [string, string], turns: [ScenarioTurn[], ScenarioTurn[]]): Scenario {
  const marker = `STEPMODE-${name.toUpperCase()}`;
  return parseScenario({
    name: `stepmode-${name}`,
    match: { firstUserMessageContains: marker },
    turns: [{ toolCalls: [{ name: 'write_todos', arguments: todos(...steps.map((step) => `${marker} ${step}`)) }] }],
    agents: [
      { name: 'first', match: { systemContains: CODE_WRITER, taskContains: 'step 1 of 2' }, turns: turns[0] },
      { name: 'second', match: { systemContains: CODE_WRITER, taskContains: 'step 2 of 2' }, turns: turns[1] },
    ],
  });
}

const stopCase = twoSteps('stop', ['one: sleep four seconds in the shell', 'two: write two.txt with the word two'], [
  [{ toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 4; echo woke-up' } }] }, { expect: { lastMessageContains: 'woke-up' }, text: 'Slept four seconds.' }],
  [{ text: 'This step must never run.' }],
]);

// The worker dies during step 1's command: the resumed sub-agent reads the interrupted result.
const killCase = twoSteps('kill', ['one: sleep five seconds in the shell', 'two: write two.txt with the word two'], [
  [{ toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 5; echo woke-up' } }] }, { text: 'The sleep was cut off by a restart; nothing else to do.' }],
  [{ expect: { messagesContain: 'The sleep was cut off by a restart' }, toolCalls: [{ name: 'write_file', arguments: { path: 'two.txt', content: 'two\n' } }] }, { text: 'Wrote two.txt.' }],
]);

const vague = { toolCalls: [{ name: 'write_todos', arguments: todos('Fix it') }] };
const vagueCase = parseScenario({ name: 'stepmode-vague', match: { firstUserMessageContains: 'STEPMODE-VAGUE' }, turns: [vague, { expect: { lastMessageContains: 'too vague' }, ...vague }, vague] });

/** Waits until the first step's sub-agent runs its command; answers that child run's id. */
function firstStepRunning(world: RunWorld, sessionId: string): Promise<string> {
  return waitFor(
    'the first step to run its command',
    async () => {
      const events = await allEvents(world.client, sessionId);
      const childId: string | undefined = events.find((e) => e.type === 'delegation.started')?.data.children[0].runId;
      return childId && events.some((e) => e.runId === childId && e.type === 'tool.start') ? childId : null;
    },
    120_000,
  );
}

describe('step-by-step mode', () => {
  let model: ScriptedModelServer;
  let stack: TestStack;
  let worker: WorkerProcess;
  let world: RunWorld;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    ensureServerBuild();
    const scenarios: Scenario[] = [threeSteps, stopCase, vagueCase, killCase];
    model = await startScriptedModelServer({ scenarios, demo: false });
    const database = await createIsolatedDatabase('stepmode');
    dropDatabase = () => database.drop();
    stack = await startStack({ env: { DATABASE_URL: database.url, DEEPSEEK_BASE_URL: model.url, RUN_LOCK_MS: '3000' } });
    worker = await startWorkerProcess(stack.config);
    world = await createRunWorld(stack, 'stepmode');
  }, 600_000);

  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
    await model?.close();
    await dropDatabase?.();
  });

  it('should keep the option on the session, change it, refuse it for claude-code, and let a message choose', async () => {
    const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { stepMode: true });
    expect(created.status).toBe(201);
    expect(created.body.stepMode).toBe(true);
    const patched = await world.client.patch(`/api/v1/sessions/${created.body.id}`, { stepMode: false });
    expect(patched.body.stepMode).toBe(false);
    expect((await world.client.get(`/api/v1/sessions/${created.body.id}`)).body.stepMode).toBe(false);
    const claude = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { engine: 'claude-code', stepMode: true });
    expect(claude.status).toBe(400);
    expect(errorCode(claude)).toBe('VALIDATION_FAILED');
    const bad = await world.client.post(`/api/v1/sessions/${created.body.id}/messages`, { content: 'x', stepMode: 'yes' });
    expect(bad.status).toBe(400);
    const claudeSession = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { engine: 'claude-code' });
    expect(claudeSession.status).toBe(201);
    const claudeStep = await world.client.post(`/api/v1/sessions/${claudeSession.body.id}/messages`, { content: 'x', stepMode: true });
    expect(claudeStep.status).toBe(400);
    expect(errorCode(claudeStep)).toBe('VALIDATION_FAILED');
    expect((await allEvents(world.client, claudeSession.body.id)).length).toBe(0);

    // The session says no; this message says yes: the run plans, and a vague plan is sent back
    // with the reason until the attempts are used up.
    const posted = await world.client.post(`/api/v1/sessions/${created.body.id}/messages`, { content: 'STEPMODE-VAGUE do the thing', stepMode: true });
    expect(posted.status).toBe(202);
    const run = await waitForRunStatus(world.client, posted.body.id, FINISHED, 120_000);
    expect(run.status).toBe('failed');
    expect(run.error).toEqual({ code: 'STEP_PLAN_INVALID', message: expect.stringContaining('too vague') });
    const events = await allEvents(world.client, created.body.id);
    expect(events.find((e) => e.type === 'message.user').data).toMatchObject({ stepMode: true });
    expect(events.filter((e) => e.type.startsWith('step.'))).toEqual([]);
    const requests = model.requests.filter((r) => r.scenario === 'stepmode-vague');
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => r.body.tools.map((t: { function: { name: string } }) => t.function.name))).toEqual([['write_todos'], ['write_todos'], ['write_todos']]);
    expect(model.failures).toEqual([]);
  }, 180_000);

  it('should lock a three-step plan, run each step as a code-writer sub-agent, and run the third with the failed second as context', async () => {
    // The bot API's one call: a step-by-step session and its run.
    const token = await createToken({ client: world.client, email: '', userId: world.userId }, world.teamId, { name: 'stepmode bot', scopes: ['read', 'write'] });
    const bot = bearerClient(stack.url, token.secret);
    const created = await bot.post(`/api/v1/workspaces/${world.workspaceId}/runs`, { prompt: 'STEPMODE-3 Create alpha, beta and gamma.', mode: 'bypass', stepMode: true });
    expect(created.status).toBe(202);
    const result = await waitForRunStatus(bot, created.body.id, FINISHED, 240_000);
    expect({ status: result.status, error: result.error }).toEqual({ status: 'completed', error: null });
    expect(model.failures).toEqual([]);

    const sessionId: string = created.body.sessionId;
    expect((await bot.get(`/api/v1/sessions/${sessionId}`)).body.stepMode).toBe(true);
    const events = await allEvents(bot, sessionId);
    expect(logProblems(events)).toEqual([]);
    const parent = events.filter((e) => e.runId === created.body.id);
    const steps = parent.filter((e) => e.type.startsWith('step.') || e.type === 'run.done').map((e) => [e.type, e.data.index ?? null, e.data.status ?? null]);
    expect(steps).toEqual([
      ['step.plan', null, null],
      ['step.begin', 0, null],
      ['step.end', 0, 'completed'],
      ['step.begin', 1, null],
      ['step.end', 1, 'failed'],
      ['step.begin', 2, null],
      ['step.end', 2, 'completed'],
      ['run.done', null, null],
    ]);
    expect(parent.find((e) => e.type === 'step.plan').data.steps.map((s: { content: string }) => s.content)).toEqual(STEPS);

    // One code-writer child run per step, in order, each under the step's key.
    const delegations = parent.filter((e) => e.type === 'delegation.started');
    expect(delegations.map((e) => e.data.toolCallId)).toEqual(['step-0', 'step-1', 'step-2']);
    const childIds: string[] = delegations.map((e) => e.data.children[0].runId);
    const children = await Promise.all(childIds.map(async (id) => (await bot.get(`/api/v1/runs/${id}`)).body));
    expect(children.map((c) => [c.status, c.profile, c.parentRunId, c.parentToolCallId])).toEqual([
      ['completed', 'code-writer', created.body.id, 'step-0'],
      ['failed', 'code-writer', created.body.id, 'step-1'],
      ['completed', 'code-writer', created.body.id, 'step-2'],
    ]);
    expect(children[1].error.code).toBe('CONTEXT_TOO_LONG');
    const ends = parent.filter((e) => e.type === 'step.end');
    expect(ends.map((e) => e.data.childRunId)).toEqual(childIds);
    expect(ends[1].data.result).toContain('CONTEXT_TOO_LONG');

    // The third step's first model request carries the second's failure (and the first's result),
    // and nothing of the session but its step: isolated context.
    const gamma = model.requests.filter((r) => r.scenario === 'stepmode-three/gamma');
    const firstGamma = JSON.stringify(gamma[0].body.messages);
    expect(firstGamma).toContain('Step 2 (STEPMODE-3 beta: write beta.txt containing the letter B) — failed:');
    expect(firstGamma).toContain('CONTEXT_TOO_LONG');
    expect(firstGamma).toContain('Wrote alpha.txt with the letter A.');
    expect(firstGamma).not.toContain('Create alpha, beta and gamma');
    expect(gamma[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(expect.arrayContaining(['write_file', 'run_command']));
    // The planning request offered write_todos alone.
    const planning = model.requests.filter((r) => r.scenario === 'stepmode-three');
    expect(planning).toHaveLength(1);
    expect(planning[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['write_todos']);

    // The wrap-up: every step's result, as the run's summary.
    const done = parent.at(-1);
    expect(done.type).toBe('run.done');
    expect(done.data.summary).toContain('3 steps: 2 completed, 1 failed');
    expect(done.data.summary).toContain('2. [FAILED] STEPMODE-3 beta');
    expect(result.summary).toBe(done.data.summary);
    const files = await workspaceFiles(stack, world);
    try {
      expect(await files.read('alpha.txt')).toBe('A\n');
      expect(await files.read('gamma.txt')).toBe('C\n');
    } finally {
      await files.close();
    }
  }, 300_000);

  it('should stop after the step that runs when a stop is asked for, and skip the rest', async () => {
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { stepMode: true, permissionMode: 'bypass' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'STEPMODE-STOP two steps, then stop' });
    const runId: string = posted.body.id;
    const started = await firstStepRunning(world, sessionId);
    const cancel = await world.client.post(`/api/v1/runs/${runId}/cancel`);
    expect(cancel.status).toBe(202);
    // The step goes on: the run waits for it, with the stop noted.
    expect(cancel.body.status).toBe('waiting_children');
    expect(cancel.body.cancelRequestedAt).not.toBeNull();

    const run = await waitForRunStatus(world.client, runId, FINISHED, 120_000);
    expect(run.status).toBe('cancelled');
    expect((await world.client.get(`/api/v1/runs/${started}`)).body.status).toBe('completed');
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    const own = events.filter((e) => e.runId === runId);
    expect(own.filter((e) => e.type === 'step.end').map((e) => [e.data.index, e.data.status])).toEqual([
      [0, 'completed'],
      [1, 'skipped'],
    ]);
    expect(own.filter((e) => e.type === 'delegation.started')).toHaveLength(1);
    expect(own.at(-1).type).toBe('run.cancelled');
    expect(own.filter((e) => e.type === 'summary.written').at(-1).data.summary).toContain('1 completed, 1 skipped');
    expect(model.requests.some((r) => r.scenario === 'stepmode-stop/second')).toBe(false);
    expect(model.failures).toEqual([]);
  }, 240_000);

  it('should resume at the step the log names after a SIGKILL of the worker while a step runs', async () => {
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { stepMode: true, permissionMode: 'bypass' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'STEPMODE-KILL two steps, with a restart' });
    const runId: string = posted.body.id;
    await firstStepRunning(world, sessionId);
    await worker.kill();
    worker = await startWorkerProcess(stack.config);

    const run = await waitForRunStatus(world.client, runId, FINISHED, 180_000);
    expect({ status: run.status, error: run.error }).toEqual({ status: 'completed', error: null });
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    const own = events.filter((e) => e.runId === runId);
    // Each step began once and ended once, in order: the restart neither repeated nor skipped one.
    expect(own.filter((e) => e.type.startsWith('step.')).map((e) => `${e.type}:${e.data.index ?? ''}`)).toEqual(['step.plan:', 'step.begin:0', 'step.end:0', 'step.begin:1', 'step.end:1']);
    expect(own.filter((e) => e.type === 'delegation.started')).toHaveLength(2);
    expect(model.requests.filter((r) => r.scenario === 'stepmode-kill')).toHaveLength(1);
    expect(model.failures).toEqual([]);
  }, 300_000);
});
