import { startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { startStack, type TestStack } from '../../support/api-harness';
import { freePort } from '../../support/free-port';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { allEvents, createRunWorld, finishTurn, scenario, startRun, waitForEvent, waitForRunStatus } from '../../support/run-fixtures';
import { ensureServerBuild, startWorkerProcess, type WorkerProcess } from '../../support/worker-process';

// Issue 8.3 acceptance: a catastrophic pattern on a megabyte of output returns and the worker keeps
// serving other runs. The worker is the BUILT app in a child process with its health endpoint on:
// were it frozen by one tenant's pattern, the other tenant's run would never finish and this test
// would fail on its wait instead of hanging the test process.

// ~1 MB of "aaa…a!" lines (the classic input for `(a+)+$`) on stdout, and a ~1 MB file of x lines.
const MAKE_MEGABYTES = String.raw`node -e "const fs = require('fs'); fs.writeFileSync('big.txt', ('x'.repeat(61) + '\n').repeat(16000) + 'xxxxy here\n'); process.stdout.write(('a'.repeat(60) + '!\n').repeat(16000) + 'the end aaaa\n')"`;

const heavy = scenario('patterns-catastrophic', 'patterns: filter the megabyte', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: MAKE_MEGABYTES } }] },
  {
    expect: { lastMessageRole: 'tool', lastMessageContains: '[cmd #1]' },
    toolCalls: [
      { name: 'read_command_output', arguments: { cmd_id: 1, filter: '(a+)+$' } },
      { name: 'grep', arguments: { pattern: '(x+x+)+y' } },
      { name: 'read_command_output', arguments: { cmd_id: 1, filter: '(a)\\1' } },
    ],
  },
  finishTurn({ messagesContain: ['1 of 16001 lines match /(a+)+$/', 'big.txt:16001: xxxxy here', 'a backreference (\\1)'] }),
]);

const plain = scenario('patterns-plain', 'patterns: a plain question', [
  { expect: { lastMessageRole: 'user' }, text: 'A plain answer from the other tenant.' },
]);

async function health(port: number): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  return { status: res.status, body: await res.json() };
}

describe('a catastrophic pattern from one tenant', () => {
  let model: ScriptedModelServer;
  let database: { url: string; drop(): Promise<void> };
  let stack: TestStack;
  let worker: WorkerProcess;
  let healthPort: number;

  beforeAll(async () => {
    ensureServerBuild();
    model = await startScriptedModelServer({ demo: false, scenarios: [heavy, plain] });
    database = await createIsolatedDatabase('patterns');
    stack = await startStack({ env: { DATABASE_URL: database.url, DEEPSEEK_BASE_URL: model.url } });
    healthPort = await freePort();
    worker = await startWorkerProcess(stack.config, { WORKER_HEALTH_PORT: String(healthPort) });
  }, 600_000);

  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
    await model?.close();
    await database?.drop();
  });

  it('should have the worker report its event-loop lag, Redis and active jobs on /health', async () => {
    const res = await health(healthPort);
    expect(res).toEqual({
      status: 200,
      body: {
        status: 'ok',
        eventLoopLagMs: { p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) },
        maxLagMs: 1000,
        redis: 'ok',
        activeJobs: expect.any(Number),
      },
    });
    expect((await fetch(`http://127.0.0.1:${healthPort}/other`)).status).toBe(404);
  });

  it("should answer the pattern over a megabyte while another tenant's run completes", async () => {
    const heavyWorld = await createRunWorld(stack, 'patterns-heavy');
    const plainWorld = await createRunWorld(stack, 'patterns-plain');
    const a = await startRun(heavyWorld, 'patterns: filter the megabyte', { permissionMode: 'bypass' });
    // The megabyte exists; the catastrophic calls are the run's next step.
    await waitForEvent(heavyWorld.client, a.sessionId, (e) => e.type === 'tool.end' && e.data.name === 'run_command', 90_000);
    const b = await startRun(plainWorld, 'patterns: a plain question', { permissionMode: 'bypass' });

    const plainRun = await waitForRunStatus(plainWorld.client, b.runId, ['completed', 'failed', 'cancelled']);
    expect(plainRun.status).toBe('completed');
    const plainEvents = await allEvents(plainWorld.client, b.sessionId);
    expect(plainEvents.filter((e) => e.type === 'message.assistant').map((e) => e.data.content)).toEqual(['A plain answer from the other tenant.']);
    expect((await health(healthPort)).body).toMatchObject({ redis: 'ok', activeJobs: expect.any(Number) });

    const heavyRun = await waitForRunStatus(heavyWorld.client, a.runId, ['completed', 'failed', 'cancelled']);
    expect({ status: heavyRun.status, error: heavyRun.error }).toEqual({ status: 'completed', error: null });
    const results = (await allEvents(heavyWorld.client, a.sessionId))
      .filter((e) => e.type === 'tool.end' && e.data.name !== 'run_command')
      .map((e) => ({ name: e.data.name, isError: e.data.isError, result: e.data.result.split('\n')[0] }));
    expect(results).toEqual(
      expect.arrayContaining([
        { name: 'read_command_output', isError: false, result: expect.stringContaining('1 of 16001 lines match /(a+)+$/, showing 1-1') },
        { name: 'grep', isError: false, result: 'big.txt:16001: xxxxy here' },
        { name: 'read_command_output', isError: true, result: expect.stringContaining('the pattern uses a backreference (\\1), which is not supported') },
      ]),
    );
  });
});
