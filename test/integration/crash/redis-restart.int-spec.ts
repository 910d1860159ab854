import { PermissionRepository } from '@h/db';
import { waitFor } from '../../support/api-harness';
import { allEvents, waitForRunStatus } from '../../support/run-fixtures';
import { PrivateRedis, startPrivateRedis } from '../../support/worker-process';
import { CrashWorld, finishTurn, logProblems, startCrashWorld, workspaceFiles } from './crash-kit';

// A permission wait lives in Postgres, not in Redis: when Redis restarts empty (every queue, job
// and pub/sub subscription gone) while a run waits for a decision, the decision still resumes the
// run. The stack uses a redis-server of its own; the machine's shared Redis is never restarted.

const turns = [
  {
    expect: { lastMessageRole: 'user' as const },
    toolCalls: [{ name: 'write_file', arguments: { path: 'notes/run-1.txt', content: 'note 1\n' } }],
  },
  { expect: { lastMessageRole: 'tool' as const, lastMessageContains: 'Created notes/run-1.txt' }, toolCalls: [{ name: 'run_command', arguments: { command: 'echo run-1 >> log.txt' } }] },
  finishTurn(1),
];

describe('Redis restart while a run waits for a permission', () => {
  let redis: PrivateRedis;
  let crash: CrashWorld;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    crash = await startCrashWorld('redis-restart', turns, { REDIS_URL: redis.url });
  }, 600_000);

  afterAll(async () => {
    await crash?.close();
    await redis?.stop();
  });

  it('should resume and complete the run on decisions given after Redis lost everything and while it is down', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'approve' });
    const sessionId: string = session.body.id;
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'Run 1: write note 1 and log it.' });
    expect(posted.status).toBe(202);
    const runId: string = posted.body.id;

    const pending = async () => {
      await waitForRunStatus(world.client, runId, ['waiting_permission'], 60_000);
      const res = await world.client.get(`/api/v1/sessions/${sessionId}/permissions?status=pending`);
      expect(res.body.items).toHaveLength(1);
      return res.body.items[0];
    };
    const write = await pending();
    expect(write.toolName).toBe('write_file');

    await redis.restart();
    const allowed = await world.client.post(`/api/v1/permissions/${write.id}`, { behavior: 'allow' });
    expect(allowed.status).toBe(200);

    // The second request (the command) comes from the resumed run. This decision comes while Redis
    // is down: it is recorded and the run goes back in line in Postgres; once Redis is back the
    // worker's sweep admits it and enqueues its job.
    const command = await pending();
    expect(command.toolName).toBe('run_command');
    await redis.stop();
    const answer = world.client.post(`/api/v1/permissions/${command.id}`, { behavior: 'allow' });
    // Redis comes back once the decision is in Postgres (read directly: the request may still wait).
    const permissions = stack.api.get(PermissionRepository);
    await waitFor('the decision to be recorded', async () => (await permissions.findById(command.id))?.status === 'allowed');
    await redis.start();
    const duringOutage = await answer;
    expect({ status: duringOutage.status, body: duringOutage.body }).toMatchObject({ status: 200, body: { status: 'allowed' } });

    const run = await waitForRunStatus(world.client, runId, ['completed', 'failed', 'cancelled'], 90_000);
    expect({ status: run.status, error: run.error }).toEqual({ status: 'completed', error: null });
    expect(model.failures).toEqual([]);
    const events = await allEvents(world.client, sessionId);
    expect(logProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'permission.resolved').map((e) => e.data.behavior)).toEqual(['allow', 'allow']);

    const files = await workspaceFiles(stack, world);
    try {
      expect(await files.read('notes/run-1.txt')).toBe('note 1\n');
      expect(await files.read('log.txt')).toBe('run-1\n');
    } finally {
      await files.close();
    }
    await waitFor('the run to leave the session', async () => (await world.client.get(`/api/v1/sessions/${sessionId}/state`)).body.activeRunId === null);
  }, 300_000);
});
