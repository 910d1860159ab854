import { allEvents, waitForRunStatus } from '../../support/run-fixtures';
import { startWorkerProcess } from '../../support/worker-process';
import { CrashWorld, finishTurn, logProblems, SLOW, startCrashWorld, summaryOf, waitForStreamingTurn } from './crash-kit';

// A run that stops in the middle of a batch and resumes in a new job (after a permission decision,
// or on another worker after a crash) must keep what the batch already achieved: here the summary
// that write_summary accepted before the run paused, which task_complete needs after the resume.

const turns = [
  {
    expect: { lastMessageRole: 'user' as const },
    toolCalls: [
      { name: 'write_summary', arguments: { summary: summaryOf(1) } },
      { name: 'run_command', arguments: { command: 'echo run-1 >> log.txt' } },
      { name: 'task_complete', arguments: {} },
    ],
  },
];

describe('a run resumed in the middle of a batch', () => {
  let crash: CrashWorld;

  beforeAll(async () => {
    crash = await startCrashWorld('resume-state', turns);
  }, 600_000);

  afterAll(() => crash?.close());

  it('should keep the summary accepted before the pause, so task_complete succeeds after the resume', async () => {
    const { model, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'approve' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Run 1: summarise, log, finish.' });
    await waitForRunStatus(world.client, posted.body.id, ['waiting_permission'], 60_000);
    const pending = (await world.client.get(`/api/v1/sessions/${sessionId}/permissions?status=pending`)).body.items;
    expect(pending.map((p: { toolName: string }) => p.toolName)).toEqual(['run_command']);
    expect((await world.client.post(`/api/v1/permissions/${pending[0].id}`, { behavior: 'allow' })).status).toBe(200);

    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect({ status: run.status, error: run.error }).toEqual({ status: 'completed', error: null });
    expect(model.failures).toEqual([]);
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    const complete = events.find((e) => e.type === 'tool.end' && e.data.name === 'task_complete');
    expect(complete.data).toMatchObject({ isError: false, result: 'Task complete' });
  });
});

describe('a run resumed on a fresh worker after it had used tools', () => {
  let crash: CrashWorld;
  const plainReplyAfterWork = [
    { expect: { lastMessageRole: 'user' as const }, toolCalls: [{ name: 'write_file', arguments: { path: 'notes/run-1.txt', content: 'note 1\n' } }] },
    { expect: { lastMessageRole: 'tool' as const }, fault: SLOW, text: 'All done.' },
    // The final-reply rule: tools were used, so plain text gets the reminder, not the end of the run.
    finishTurn(1, { lastMessageRole: 'user', lastMessageContains: 'write_summary' }),
  ];

  beforeAll(async () => {
    crash = await startCrashWorld('resume-work', plainReplyAfterWork);
  }, 600_000);

  afterAll(() => crash?.close());

  it('should still ask for a summary when the model answers in plain text after the resume', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Run 1: write the note.' });
    await waitForStreamingTurn(model, 'Run 1: write the note.', 1);
    await crash.worker.kill();
    crash.worker = await startWorkerProcess(stack.config);

    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect({ status: run.status, error: run.error }).toEqual({ status: 'completed', error: null });
    expect(model.failures).toEqual([]);
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'message.user' && e.data.synthetic)).toHaveLength(1);
    expect(events.find((e) => e.type === 'run.done').data.summary).toBe(summaryOf(1));
  });
});
