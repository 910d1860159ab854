import { waitFor } from '../../support/api-harness';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  scenario,
  startRun,
  useScriptedRunStack,
  waitForPendingPermission,
  waitForRunStatus,
} from '../../support/run-fixtures';
import { addPerson } from '../api/team-fixture';

const FINISHED = ['completed', 'failed', 'cancelled'];
// About 6 s of streaming: long enough to look at the queue while it runs.
const SLOW_TEXT = 'A deliberately slow answer that holds the team slot for a while. '.repeat(16);

const slowScenario = scenario('queue-slow', 'queue: hold the slot', [
  { expect: { lastMessageRole: 'user' }, fault: { type: 'slow', chunkDelayMs: 90 }, text: SLOW_TEXT },
]);
const quickScenario = scenario('queue-quick', 'queue: quick answer', [{ expect: { lastMessageRole: 'user' }, text: 'quick answer' }]);
const askingScenario = scenario('queue-asking', 'queue: ask and wait', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo waited' } }] },
  finishTurn({ lastMessageRole: 'tool', lastMessageContains: 'waited' }),
]);
const orderedScenario = scenario('queue-ordered', 'queue: first of three', [
  // Slow, so that the first run still holds the session while the other two are posted (a quick
  // answer can end before the next POST arrives).
  { expect: { lastMessageRole: 'user', lastMessageContains: 'first of three' }, fault: { type: 'slow', chunkDelayMs: 300 }, text: 'answer one' },
  { expect: { lastMessageRole: 'user', lastMessageContains: 'second of three', messagesContain: 'answer one' }, text: 'answer two' },
  { expect: { lastMessageRole: 'user', lastMessageContains: 'third of three', messagesContain: 'answer two' }, text: 'answer three' },
]);
const idempotentScenario = scenario('queue-idempotent', 'queue: retried post', [
  { expect: { lastMessageRole: 'user' }, text: 'answer to the retried post' },
  { expect: { lastMessageRole: 'user', lastMessageContains: 'queue: raced post' }, text: 'answer to the raced post' },
]);

describe('run queueing (RUNS_PER_TEAM=1, one run per session, idempotent posts)', () => {
  const ctx = useScriptedRunStack([slowScenario, quickScenario, askingScenario, orderedScenario, idempotentScenario], { RUNS_PER_TEAM: '1' });

  it('should queue a second session behind the team limit with its position, and run it after the first, never evicting it', async () => {
    const world = await createRunWorld(ctx.stack, 'queue-team');
    const a = await startRun(world, 'queue: hold the slot', { permissionMode: 'skip' });
    await waitFor('the slow run to stream', async () => ctx.model.requests.some((r) => r.scenario === 'queue-slow'));

    const b = await startRun(world, 'queue: quick answer', { permissionMode: 'skip' });
    expect(b.run.status).toBe('queued');
    expect(b.run.position).toBe(1);
    const c = await startRun(world, 'queue: quick answer', { permissionMode: 'skip' });
    expect(c.run.position).toBe(2);
    const whileRunning = await Promise.all([a, b, c].map(async (r) => (await world.client.get(`/api/v1/runs/${r.runId}`)).body));
    expect(whileRunning.map((r) => [r.status, r.position])).toEqual([
      ['running', null],
      ['queued', 1],
      ['queued', 2],
    ]);

    const [runA, runB, runC] = await Promise.all([a, b, c].map((r) => waitForRunStatus(world.client, r.runId, FINISHED, 60000)));
    expect([runA.status, runB.status, runC.status]).toEqual(['completed', 'completed', 'completed']);
    // One at a time for the team: each started only after the one before it had finished.
    expect(Date.parse(runB.startedAt)).toBeGreaterThanOrEqual(Date.parse(runA.finishedAt));
    expect(Date.parse(runC.startedAt)).toBeGreaterThanOrEqual(Date.parse(runB.finishedAt));
    const slowAnswer = (await allEvents(world.client, a.sessionId)).find((e) => e.type === 'message.assistant');
    expect(slowAnswer.data.content).toBe(SLOW_TEXT);
  });

  it('should free the team slot while a run waits for a decision', async () => {
    const world = await createRunWorld(ctx.stack, 'queue-wait');
    const waiting = await startRun(world, 'queue: ask and wait', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, waiting.sessionId, waiting.runId);
    const other = await startRun(world, 'queue: quick answer', { permissionMode: 'skip' });
    expect((await waitForRunStatus(world.client, other.runId, FINISHED, 30000)).status).toBe('completed');
    expect((await world.client.get(`/api/v1/runs/${waiting.runId}`)).body.status).toBe('waiting_permission');

    expect((await world.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'allow' })).status).toBe(200);
    expect((await waitForRunStatus(world.client, waiting.runId, FINISHED, 30000)).status).toBe('completed');
  });

  it('should run the messages of one session one at a time, in the order they were posted', async () => {
    const world = await createRunWorld(ctx.stack, 'queue-session');
    const first = await startRun(world, 'queue: first of three', { permissionMode: 'skip' });
    const second = await startRun(world, 'queue: second of three', { sessionId: first.sessionId });
    const third = await startRun(world, 'queue: third of three', { sessionId: first.sessionId });
    expect(second.run.status).toBe('queued');
    expect(third.run.status).toBe('queued');

    const runs = await Promise.all([first, second, third].map((r) => waitForRunStatus(world.client, r.runId, FINISHED, 60000)));
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    for (let i = 1; i < runs.length; i++) expect(Date.parse(runs[i].startedAt)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1].finishedAt));

    // In the log each run's steps sit between its run.started and its run.done, in posting order.
    const events = await allEvents(world.client, first.sessionId);
    const ids = [first.runId, second.runId, third.runId];
    const bounds = ids.map((id) => ({
      started: events.find((e) => e.runId === id && e.type === 'run.started').seq,
      done: events.find((e) => e.runId === id && e.type === 'run.done').seq,
    }));
    for (let i = 1; i < bounds.length; i++) expect(bounds[i].started).toBeGreaterThan(bounds[i - 1].done);
    expect(events.filter((e) => e.type === 'message.assistant').map((e) => e.data.content)).toEqual(['answer one', 'answer two', 'answer three']);
    const listed = await world.client.get(`/api/v1/sessions/${first.sessionId}/runs`);
    expect(listed.body.items.map((r: any) => r.id)).toEqual([...ids].reverse());
  });

  it('should answer a repeated clientMessageId with the same run and record one run and one message', async () => {
    const world = await createRunWorld(ctx.stack, 'queue-idem');
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId = session.body.id;
    const post = (content: string, clientMessageId: string) => world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content, clientMessageId });

    // A client retrying after a lost answer...
    const one = await post('queue: retried post', 'msg-retried-1');
    const retry = await post('queue: retried post', 'msg-retried-1');
    expect([one.status, retry.status]).toEqual([202, 202]);
    expect(retry.body.id).toBe(one.body.id);
    expect(retry.body.clientMessageId).toBe('msg-retried-1');
    // ...and several tabs racing with the same id.
    const raced = await Promise.all(Array.from({ length: 6 }, () => post('queue: raced post', 'msg-raced-2')));
    expect(raced.map((r) => r.status)).toEqual(Array(6).fill(202));
    expect(new Set(raced.map((r) => r.body.id)).size).toBe(1);

    await Promise.all([one.body.id, raced[0].body.id].map((id) => waitForRunStatus(world.client, id, FINISHED, 60000)));
    const runs = (await world.client.get(`/api/v1/sessions/${sessionId}/runs`)).body.items;
    expect(runs.map((r: any) => [r.clientMessageId, r.status]).sort()).toEqual([
      ['msg-raced-2', 'completed'],
      ['msg-retried-1', 'completed'],
    ]);
    const messages = (await allEvents(world.client, sessionId)).filter((e) => e.type === 'message.user');
    expect(messages.map((e) => e.data.content)).toEqual(['queue: retried post', 'queue: raced post']);
    expect(ctx.model.requests.filter((r) => r.scenario === 'queue-idempotent')).toHaveLength(2);
  });
});

describe('run queueing per user (RUNS_PER_USER=1, team limit 4)', () => {
  const ctx = useScriptedRunStack([slowScenario, quickScenario], { RUNS_PER_USER: '1' });

  it("should queue a user's second run behind their first while a teammate's run starts at once", async () => {
    const world = await createRunWorld(ctx.stack, 'queue-user');
    const mate = await addPerson(ctx.stack.url, { client: world.client, email: '', userId: world.userId }, world.teamId, 'member', 'queue-mate');
    const own = await startRun(world, 'queue: hold the slot', { permissionMode: 'skip' });
    await waitFor('the slow run to stream', async () => ctx.model.requests.some((r) => r.scenario === 'queue-slow'));

    const ownSecond = await startRun(world, 'queue: quick answer', { permissionMode: 'skip' });
    expect([ownSecond.run.status, ownSecond.run.position]).toEqual(['queued', 1]);
    // The teammate is not behind that queued run: the team has room and they run nothing yet.
    const theirs = await startRun({ ...world, client: mate.client, userId: mate.userId }, 'queue: quick answer', { permissionMode: 'skip' });
    const theirRun = await waitForRunStatus(mate.client, theirs.runId, FINISHED, 30000);
    expect(theirRun.status).toBe('completed');
    expect((await world.client.get(`/api/v1/runs/${own.runId}`)).body.status).toBe('running');
    expect((await world.client.get(`/api/v1/runs/${ownSecond.runId}`)).body).toEqual(expect.objectContaining({ status: 'queued', position: 1 }));

    const [first, second] = await Promise.all([own, ownSecond].map((r) => waitForRunStatus(world.client, r.runId, FINISHED, 60000)));
    expect([first.status, second.status]).toEqual(['completed', 'completed']);
    expect(Date.parse(second.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.finishedAt));
  });
});

describe('run queueing per workspace (RUNS_PER_WORKSPACE=1: h2c maxConcurrent, for every run)', () => {
  const ctx = useScriptedRunStack([slowScenario, quickScenario], { RUNS_PER_WORKSPACE: '1' });

  it("should queue a workspace's second run behind its first while a run in another workspace starts at once", async () => {
    const world = await createRunWorld(ctx.stack, 'queue-ws');
    const other = await world.client.post(`/api/v1/teams/${world.teamId}/workspaces`, { name: 'queue-ws-other' });
    await waitFor('the other workspace', async () => (await world.client.get(`/api/v1/workspaces/${other.body.id}`)).body.status === 'ready', 60000);
    const first = await startRun(world, 'queue: hold the slot', { permissionMode: 'skip' });
    await waitFor('the slow run to stream', async () => ctx.model.requests.some((r) => r.scenario === 'queue-slow'));

    // Same user, same team, room in both: only the workspace is full.
    const second = await startRun(world, 'queue: quick answer', { permissionMode: 'skip' });
    expect([second.run.status, second.run.position]).toEqual(['queued', 1]);
    const elsewhere = await startRun({ ...world, workspaceId: other.body.id }, 'queue: quick answer', { permissionMode: 'skip' });
    expect((await waitForRunStatus(world.client, elsewhere.runId, FINISHED, 30000)).status).toBe('completed');
    expect((await world.client.get(`/api/v1/runs/${first.runId}`)).body.status).toBe('running');
    expect((await world.client.get(`/api/v1/runs/${second.runId}`)).body).toEqual(expect.objectContaining({ status: 'queued', position: 1 }));

    const [a, b] = await Promise.all([first, second].map((r) => waitForRunStatus(world.client, r.runId, FINISHED, 60000)));
    expect([a.status, b.status]).toEqual(['completed', 'completed']);
    expect(Date.parse(b.startedAt)).toBeGreaterThanOrEqual(Date.parse(a.finishedAt));
  });
});
