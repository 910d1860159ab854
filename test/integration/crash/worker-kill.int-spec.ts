import { INTERRUPTED_RESULT } from '@h/agent';
import { PrismaService, RunRepository } from '@h/db';
import { JobName, JobQueueService } from '@h/jobs';
import { runJobId } from '@h/runs';
import type { ScenarioTurn } from '@h/scripted-model';
import { waitFor } from '../../support/api-harness';
import { allEvents, waitForRunStatus } from '../../support/run-fixtures';
import { startWorkerProcess } from '../../support/worker-process';
import { CrashWorld, logProblems, runTurns, sessionRequests, startCrashWorld, usageFromEvents, waitForStreamingTurn, workspaceFiles } from './crash-kit';

// Acceptance of "runs as jobs": five runs in a row, each surviving a SIGKILL of the worker in the
// middle of it, with a complete event log. The worker is the BUILT app in a child process (what
// production runs); the api runs in this process. Each run is killed at a different point: while
// the model streams its first answer, a later answer, the last answer, while a tool runs, and twice.

const slowCommand: ScenarioTurn = {
  expect: { lastMessageRole: 'tool', lastMessageContains: 'Created notes/run-3.txt' },
  thinking: 'A long step; the worker dies while it runs.',
  toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 5 && echo late >> slow.txt' } }],
};

// Turn indexes (0-based) into this flat list are what the kill points below wait for.
const turns: ScenarioTurn[] = [
  ...runTurns(1), // 0 note, 1 log, 2 finish
  ...runTurns(2), // 3, 4, 5
  // The interrupted command's result tells the model it was interrupted; it goes on from there.
  ...runTurns(3, [slowCommand], { lastMessageRole: 'tool', lastMessageContains: 'interrupted' }), // 6, 7 slow command, 8, 9
  ...runTurns(4), // 10, 11, 12
  ...runTurns(5), // 13, 14, 15
];

describe('worker killed with SIGKILL in the middle of a run', () => {
  let crash: CrashWorld;

  beforeAll(async () => {
    crash = await startCrashWorld('crash-five-runs', turns);
  }, 600_000);

  afterAll(() => crash?.close());

  it('should resume each of five runs on a fresh worker and leave a complete event log, files and usage', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    expect(session.status).toBe(201);
    const sessionId: string = session.body.id;

    const killAndReplace = async () => {
      await crash.worker.kill();
      crash.worker = await startWorkerProcess(stack.config);
    };
    // The session's first message names its conversation at the scripted server.
    const streaming = (turn: number) => () => waitForStreamingTurn(model, 'Run 1: write note 1 and log it.', turn);
    const toolRunning = (command: string) => () =>
      waitFor(`"${command}" to start`, async () => {
        const events = await allEvents(world.client, sessionId);
        const start = events.find((e) => e.type === 'tool.start' && e.data.arguments.includes(command));
        return start && !events.some((e) => e.type === 'tool.end' && e.data.toolCallId === start.data.toolCallId);
      }, 60_000);
    const killPoints: Array<Array<() => Promise<unknown>>> = [
      [streaming(0)], // run 1: before its first answer is in the log
      [streaming(4)], // run 2: after a tool result, while the next answer streams
      [toolRunning('sleep 5')], // run 3: while a command runs (tool.start logged, tool.end not)
      [streaming(12)], // run 4: while write_summary + task_complete stream
      [streaming(13), streaming(14)], // run 5: killed twice
    ];

    const runIds: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: `Run ${i}: write note ${i} and log it.` });
      expect(posted.status).toBe(202);
      runIds.push(posted.body.id);
      for (const killPoint of killPoints[i - 1]) {
        await killPoint();
        await killAndReplace();
      }
      const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'], 120_000);
      expect({ run: i, status: run.status, error: run.error }).toEqual({ run: i, status: 'completed', error: null });
      // One claim per worker that held it: the killed ones and the one that finished.
      expect((await stack.api.get(RunRepository).findById(run.id))?.attempts).toBe(killPoints[i - 1].length + 1);
    }
    expect(model.failures).toEqual([]);

    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    const turnsPerRun = [3, 3, 4, 3, 3];
    runIds.forEach((runId, i) => {
      const of = (type: string) => events.filter((e) => e.runId === runId && e.type === type);
      expect({ run: i + 1, done: of('run.done').length, failed: of('run.failed').length }).toEqual({ run: i + 1, done: 1, failed: 0 });
      expect({ run: i + 1, assistant: of('message.assistant').length }).toEqual({ run: i + 1, assistant: turnsPerRun[i] });
      expect(of('message.user').map((e) => e.data.content)).toEqual([`Run ${i + 1}: write note ${i + 1} and log it.`]);
    });
    const interrupted = events.find((e) => e.type === 'tool.end' && e.data.name === 'run_command' && e.data.result === INTERRUPTED_RESULT);
    expect(interrupted).toMatchObject({ runId: runIds[2], data: { isError: true } });

    // Usage: every answered request counted once, none lost with a killed worker, none twice.
    const answered = sessionRequests(model, 'Run 1: write note 1 and log it.').filter((r) => r.outcome === 'completed');
    expect(answered).toHaveLength(turns.length);
    const totals = { requests: 0, promptTokens: 0 };
    for (const runId of runIds) {
      const run = (await world.client.get(`/api/v1/runs/${runId}`)).body;
      expect(run.usage).toMatchObject(usageFromEvents(events, runId));
      // run.done reports the whole run, not only the segment of the worker that finished it.
      const done = events.find((e) => e.runId === runId && e.type === 'run.done');
      expect(done.data.usage).toMatchObject({ requests: run.usage.requests, promptTokens: run.usage.promptTokens });
      totals.requests += run.usage.requests;
      totals.promptTokens += run.usage.promptTokens;
    }
    expect(totals.requests).toBe(turns.length);
    expect(totals.promptTokens).toBe(answered.reduce((n, r) => n + r.promptTokens, 0));
    const state = (await world.client.get(`/api/v1/sessions/${sessionId}/state`)).body;
    expect(state.usage).toMatchObject(totals);
    expect(state.activeRunId).toBeNull();

    // The files: every tool that finished ran exactly once.
    const files = await workspaceFiles(stack, world);
    try {
      for (let i = 1; i <= 5; i++) expect(await files.read(`notes/run-${i}.txt`)).toBe(`note ${i}\n`);
      expect(await files.read('log.txt')).toBe('run-1\nrun-2\nrun-3\nrun-4\nrun-5\n');
    } finally {
      await files.close();
    }
  }, 900_000);

  // The narrowest window: the engine appended run.done, then the worker died before it marked the
  // run completed. That state is made directly (a kill cannot be timed into a window of one
  // statement): the run goes back to running and its job is enqueued, as the sweep would.
  it('should finish a run whose worker died after run.done without asking the model again', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Run 1: write note 1 and log it.' });
    expect((await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    // The first test's session began with the same message; only requests after `before` count.
    const requests = () => sessionRequests(model, 'Run 1: write note 1 and log it.').length;
    const before = requests();

    await stack.api.get(PrismaService).run.update({ where: { id: posted.body.id }, data: { status: 'running', finishedAt: null } });
    await stack.api.get(JobQueueService).enqueue(JobName.AgentRun, { runId: posted.body.id }, { jobId: runJobId(posted.body.id) });
    await waitFor('the resumed run to be claimed', async () => ((await stack.api.get(RunRepository).findById(posted.body.id))?.attempts ?? 0) >= 2);

    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect({ status: run.status, error: run.error }).toEqual({ status: 'completed', error: null });
    expect(requests()).toBe(before);
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'run.started')).toHaveLength(1);
    expect(model.failures).toEqual([]);
  });
});
