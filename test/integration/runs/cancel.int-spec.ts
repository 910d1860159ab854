import { waitFor } from '../../support/api-harness';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  sandboxExec,
  scenario,
  startRun,
  useScriptedRunStack,
  waitForEvent,
  waitForPendingPermission,
  waitForRunStatus,
} from '../../support/run-fixtures';
import { addPerson, errorCode } from '../api/team-fixture';
import { connectSocket, emitAck } from './stream-clients';

// "Promptly" means the user sees the run end within a few seconds of asking, not when the
// stream or the command would have ended by itself (10 s and 30 s here).
const PROMPTLY_MS = 4000;
const FINISHED = ['completed', 'failed', 'cancelled'];

const SLOW_TEXT = 'This answer streams very slowly so that it can be cancelled halfway through. '.repeat(20);

const commandScenario = scenario('cancel-one-command', 'cancel: one command to approve', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved > approved.txt' } }] },
  finishTurn({ lastMessageRole: 'tool' }),
]);
const slowScenario = scenario('cancel-slow-stream', 'cancel: answer slowly', [
  { expect: { lastMessageRole: 'user' }, fault: { type: 'slow', chunkDelayMs: 100 }, text: SLOW_TEXT },
]);
const sleepScenario = scenario('cancel-long-command', 'cancel: run a long command', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 37' } }] },
]);

/** Process command lines in the sandbox that are the scripted `sleep 37` (or its shell). */
function sleepers(ps: string): string[] {
  return ps
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(\S*sh -c )?sleep 37$/.test(l));
}

describe('cancelling runs (queued, waiting, streaming, in a command)', () => {
  const ctx = useScriptedRunStack([commandScenario, slowScenario, sleepScenario]);

  it('should cancel a queued run at once, and the run ahead of it goes on without its message', async () => {
    const world = await createRunWorld(ctx.stack, 'cancel-queued');
    const first = await startRun(world, 'cancel: one command to approve', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, first.sessionId, first.runId);
    // The session is busy with the waiting run, so the next message queues behind it.
    const second = await startRun(world, 'a second message that will be cancelled', { sessionId: first.sessionId });
    expect(second.run.status).toBe('queued');

    const cancelled = await world.client.post(`/api/v1/runs/${second.runId}/cancel`);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.finishedAt).not.toBeNull();
    const events = await allEvents(world.client, first.sessionId);
    expect(events.filter((e) => e.runId === second.runId).map((e) => e.type)).toEqual(['message.user', 'run.cancelled']);
    expect(events.at(-1).data.by).toBe(world.userId);

    const again = await world.client.post(`/api/v1/runs/${second.runId}/cancel`);
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe('RUN_FINISHED');

    expect((await world.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'allow' })).status).toBe(200);
    expect((await waitForRunStatus(world.client, first.runId, FINISHED, 30000)).status).toBe('completed');
    // The cancelled message never reached the model.
    const prompts = ctx.model.requests.map((r) => JSON.stringify(r.body?.messages ?? []));
    expect(prompts.some((p) => p.includes('a second message that will be cancelled'))).toBe(false);
    expect((await world.client.get(`/api/v1/runs/${second.runId}`)).body.status).toBe('cancelled');
  });

  it('should cancel a run waiting for a decision: the request is cancelled and the tool never runs', async () => {
    const world = await createRunWorld(ctx.stack, 'cancel-waiting');
    const { sessionId, runId } = await startRun(world, 'cancel: one command to approve', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, sessionId, runId);

    const cancelled = await world.client.post(`/api/v1/runs/${runId}/cancel`);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toBe('cancelled');
    const perms = await world.client.get(`/api/v1/sessions/${sessionId}/permissions`);
    expect(perms.body.items.map((p: any) => [p.id, p.status])).toEqual([[request.id, 'cancelled']]);
    expect((await world.client.get(`/api/v1/sessions/${sessionId}/permissions?status=pending`)).body.items).toEqual([]);

    const late = await world.client.post(`/api/v1/permissions/${request.id}`, { behavior: 'allow' });
    expect(late.status).toBe(409);
    expect(errorCode(late)).toBe('ALREADY_DECIDED');

    const events = await allEvents(world.client, sessionId);
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'run.cancelled', runId }));
    expect(events.filter((e) => e.type === 'tool.start')).toEqual([]);
    expect((await sandboxExec(ctx.stack, world, 'test -e approved.txt')).exitCode).not.toBe(0);
    const state = await world.client.get(`/api/v1/sessions/${sessionId}/state`);
    expect(state.body.activeRunId).toBeNull();
  });

  it('should let a member cancel over Socket.IO, and refuse a viewer over REST and Socket.IO', async () => {
    const world = await createRunWorld(ctx.stack, 'cancel-sock');
    const viewer = await addPerson(ctx.stack.url, { client: world.client, email: '', userId: world.userId }, world.teamId, 'viewer', 'cancel-viewer');
    const { sessionId, runId } = await startRun(world, 'cancel: one command to approve', { permissionMode: 'approve' });
    await waitForPendingPermission(world.client, sessionId, runId);

    const refused = await viewer.client.post(`/api/v1/runs/${runId}/cancel`);
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('FORBIDDEN');
    const viewerSocket = await connectSocket(ctx.stack.url, { cookieOf: viewer.client });
    const memberSocket = await connectSocket(ctx.stack.url, { cookieOf: world.client });
    try {
      expect(await emitAck(viewerSocket, 'run.cancel', { runId })).toEqual({ ok: false, error: expect.objectContaining({ code: 'FORBIDDEN' }) });
      expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('waiting_permission');
      const ack = await emitAck(memberSocket, 'run.cancel', { runId });
      expect(ack).toEqual({ ok: true, data: expect.objectContaining({ id: runId, status: 'cancelled' }) });
    } finally {
      viewerSocket.disconnect();
      memberSocket.disconnect();
    }
    expect((await allEvents(world.client, sessionId)).at(-1)).toEqual(expect.objectContaining({ type: 'run.cancelled', runId }));
  });

  it('should end a run promptly when cancelled in the middle of a slow model stream', async () => {
    const world = await createRunWorld(ctx.stack, 'cancel-stream');
    const { sessionId, runId } = await startRun(world, 'cancel: answer slowly', { permissionMode: 'skip' });
    await waitFor('the slow stream to be under way', async () => ctx.model.requests.some((r) => r.scenario === 'cancel-slow-stream'));
    await waitForEvent(world.client, sessionId, (e) => e.type === 'run.started');

    const res = await world.client.post(`/api/v1/runs/${runId}/cancel`);
    expect(res.status).toBe(202);
    expect(['running', 'cancelled']).toContain(res.body.status);
    expect(res.body.cancelRequestedAt).not.toBeNull();

    const run = await waitForRunStatus(world.client, runId, FINISHED, PROMPTLY_MS);
    expect(run.status).toBe('cancelled');
    const events = await allEvents(world.client, sessionId);
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'run.cancelled', runId }));
    const partial = events.filter((e) => e.type === 'message.assistant');
    // What had streamed is kept as a cancelled message (a prefix of the answer); nothing more is asked.
    expect(partial.length).toBeLessThanOrEqual(1);
    if (partial.length) {
      expect(partial[0].data.finishReason).toBe('cancelled');
      expect(SLOW_TEXT.startsWith(partial[0].data.content)).toBe(true);
      expect(partial[0].data.content.length).toBeLessThan(SLOW_TEXT.length);
    }
    await waitFor('the model stream to be closed', async () => ctx.model.requests.every((r) => r.outcome !== 'pending'), PROMPTLY_MS);
    expect(ctx.model.requests.filter((r) => r.scenario === 'cancel-slow-stream')).toHaveLength(1);
    expect(ctx.model.requests[0].outcome).toBe('client_closed');
  });

  it('should end a run promptly when cancelled during a long command, and the command is killed in the container', async () => {
    const world = await createRunWorld(ctx.stack, 'cancel-cmd');
    const { sessionId, runId } = await startRun(world, 'cancel: run a long command', { permissionMode: 'skip' });
    await waitForEvent(world.client, sessionId, (e) => e.type === 'tool.start' && e.data.name === 'run_command');
    // The command really runs in the container before the cancel (so the check below means something).
    await waitFor('sleep 37 to run in the sandbox', async () => sleepers((await sandboxExec(ctx.stack, world, 'ps -eo args')).stdout).length > 0);

    expect((await world.client.post(`/api/v1/runs/${runId}/cancel`)).status).toBe(202);
    const run = await waitForRunStatus(world.client, runId, FINISHED, PROMPTLY_MS);
    expect(run.status).toBe('cancelled');
    await waitFor(
      'sleep 37 to be gone from the sandbox',
      async () => sleepers((await sandboxExec(ctx.stack, world, 'ps -eo args')).stdout).length === 0,
      PROMPTLY_MS,
    );

    const events = await allEvents(world.client, sessionId);
    const end = events.find((e) => e.type === 'tool.end' && e.data.name === 'run_command');
    expect(end.data.result).toMatch(/cancelled/);
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'run.cancelled', runId }));
    expect(ctx.model.requests).toHaveLength(1);
  });
});
