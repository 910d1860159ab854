import { randomUUID } from 'node:crypto';
import { AppConfig, parseEnv } from '@h/config';
import { EgressLogRepository, EventBusRepository, PrismaService, QuotaExceededError, SandboxRepository, WorkspaceRepository } from '@h/db';
import { EgressService } from '@h/egress';
import { SandboxManager, WorkspaceLifecycleJob } from '@h/workspaces';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpResponse, signedUpClient } from '../../support/http-client';
import { TEST_DATABASE_URL } from '../../support/test-env';
import { createTeam, createWorkspace, errorCode, Person, sql } from './team-fixture';

const LIMITS = { TEAM_MAX_WORKSPACES: '3', TEAM_MAX_RUNNING_SANDBOXES: '1', TEAM_MAX_ACTIVE_RUNS: '3' };

/** Marks a workspace's sandbox running in the database, the way the worker records a started one. */
async function markSandboxRunning(workspaceId: string, status = 'running'): Promise<void> {
  await sql(
    `INSERT INTO "Sandbox" (id, "workspaceId", driver, "volumeName", image, status, "updatedAt")
     VALUES (gen_random_uuid(), $1, 'docker', $2, 'test', $3::"SandboxStatus", now())
     ON CONFLICT ("workspaceId") DO UPDATE SET status = EXCLUDED.status`,
    [workspaceId, `vol-${workspaceId}`, status],
  );
}

function expectQuota(res: HttpResponse, status: number, text: RegExp): void {
  expect({ status: res.status, code: errorCode(res) }).toEqual({ status, code: 'QUOTA_EXCEEDED' });
  expect(res.body.error.message).toMatch(text);
}

// Issue 8, point 7: per-team quotas on workspaces, running sandboxes and queued-or-running runs.
// These stacks run no worker, so posted runs stay queued and count against the quota.
describe('team quotas', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ env: LIMITS });
  });

  afterAll(async () => {
    await stack?.close();
  });

  async function freshTeam(tag: string): Promise<{ owner: Person; teamId: string }> {
    const owner = await signedUpClient(stack.url, tag);
    return { owner, teamId: await createTeam(owner, `${tag} team`) };
  }
  const post = (p: Person, sessionId: string, clientMessageId?: string) =>
    p.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: 'quota', ...(clientMessageId ? { clientMessageId } : {}) });
  const newSessionIn = async (p: Person, workspaceId: string) => (await p.client.post(`/api/v1/workspaces/${workspaceId}/sessions`, {})).body.id as string;

  it('should answer 409 QUOTA_EXCEEDED naming the limit and what to do once the team has its workspaces, and let a delete free one', async () => {
    const { owner, teamId } = await freshTeam('ws-quota');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await createWorkspace(owner, teamId, `ws-${i}`));
    const over = await owner.client.post(`/api/v1/teams/${teamId}/workspaces`, { name: 'one too many' });
    expectQuota(over, 409, /3 of 3 workspaces.*delete one.*TEAM_MAX_WORKSPACES/);
    expect((await owner.client.delete(`/api/v1/workspaces/${ids[0]}`)).status).toBe(204);
    expect((await owner.client.post(`/api/v1/teams/${teamId}/workspaces`, { name: 'fits again' })).status).toBe(201);
  });

  it('should never let parallel creates overshoot the workspace quota', async () => {
    const { owner, teamId } = await freshTeam('ws-race');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => owner.client.post(`/api/v1/teams/${teamId}/workspaces`, { name: `race-${i}` })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 409).map(errorCode)).toEqual(Array(5).fill('QUOTA_EXCEEDED'));
    expect((await sql<{ n: number }>('SELECT count(*)::int AS n FROM "Workspace" WHERE "teamId" = $1', [teamId]))[0].n).toBe(3);
  });

  it('should answer 429 QUOTA_EXCEEDED once the team has its runs queued or running, also to parallel posts, until one ends', async () => {
    const { owner, teamId } = await freshTeam('run-quota');
    const ws = await createWorkspace(owner, teamId, 'runs');
    const sessions = await Promise.all(Array.from({ length: 6 }, () => newSessionIn(owner, ws)));
    const answers = await Promise.all(sessions.map((s, i) => post(owner, s, `message-${i}`)));
    expect(answers.filter((r) => r.status === 202)).toHaveLength(3);
    const refused = answers.find((r) => r.status !== 202) as HttpResponse;
    expectQuota(refused, 429, /3 of 3 agent runs queued or running.*TEAM_MAX_ACTIVE_RUNS/);
    // A retried message of a run that got in still answers with that run (idempotent retries).
    const i = answers.findIndex((r) => r.status === 202);
    const retried = await post(owner, sessions[i], `message-${i}`);
    expect({ status: retried.status, id: retried.body.id }).toEqual({ status: 202, id: answers[i].body.id });
    // No worker runs here: finish one the way a worker would, and there is room again.
    await sql(`UPDATE "Run" SET status = 'completed', "finishedAt" = now() WHERE id = $1`, [answers[i].body.id]);
    const j = answers.findIndex((r) => r.status !== 202);
    expect((await post(owner, sessions[j])).status).toBe(202);
  });

  it('should not count runs waiting for an approval against the run quota', async () => {
    const { owner, teamId } = await freshTeam('run-waiting');
    const ws = await createWorkspace(owner, teamId, 'waiting');
    const sessions = await Promise.all(Array.from({ length: 4 }, () => newSessionIn(owner, ws)));
    for (const s of sessions.slice(0, 3)) expect((await post(owner, s)).status).toBe(202);
    await sql(`UPDATE "Run" SET status = 'waiting_permission' WHERE "teamId" = $1`, [teamId]);
    expect((await post(owner, sessions[3])).status).toBe(202);
  });

  it('should refuse a run that needs one more sandbox than the team may run, but not one whose sandbox runs', async () => {
    const { owner, teamId } = await freshTeam('sandbox-quota');
    const [busy, idle] = [await createWorkspace(owner, teamId, 'busy'), await createWorkspace(owner, teamId, 'idle')];
    await markSandboxRunning(busy);
    const refused = await post(owner, await newSessionIn(owner, idle));
    expectQuota(refused, 429, /1 of 1 sandboxes running.*SANDBOX_IDLE_MINUTES.*TEAM_MAX_RUNNING_SANDBOXES/);
    expect((await post(owner, await newSessionIn(owner, busy))).status).toBe(202);
    await markSandboxRunning(busy, 'stopped');
    expect((await post(owner, await newSessionIn(owner, idle))).status).toBe(202);
  });

  it('should show the limits and what the team uses of them', async () => {
    const { owner, teamId } = await freshTeam('quota-view');
    const ws = await createWorkspace(owner, teamId, 'view');
    await markSandboxRunning(ws);
    expect((await post(owner, await newSessionIn(owner, ws))).status).toBe(202);
    const res = await owner.client.get(`/api/v1/teams/${teamId}/quotas`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      workspaces: { used: 1, limit: 3, setting: 'TEAM_MAX_WORKSPACES' },
      runningSandboxes: { used: 1, limit: 1, setting: 'TEAM_MAX_RUNNING_SANDBOXES' },
      activeRuns: { used: 1, limit: 3, setting: 'TEAM_MAX_ACTIVE_RUNS' },
    });
  });

  describe('in the worker', () => {
    const config = new AppConfig(parseEnv({ DATABASE_URL: TEST_DATABASE_URL, SANDBOX_NAME_PREFIX: `h-test-quota-${randomUUID().slice(0, 6)}-`, ...LIMITS }));
    const prisma = new PrismaService(config);
    const egress = new EgressService(config, new WorkspaceRepository(prisma), new EgressLogRepository(prisma));
    const manager = new SandboxManager(config, new SandboxRepository(prisma), egress);

    afterAll(async () => {
      await manager.onApplicationShutdown();
      await prisma.$disconnect();
    });

    it('should refuse to start a sandbox beyond the quota, and set a new workspace up without one', async () => {
      const { owner, teamId } = await freshTeam('worker-quota');
      const [busy, fresh] = [await createWorkspace(owner, teamId, 'busy'), await createWorkspace(owner, teamId, 'fresh')];
      await markSandboxRunning(busy);
      const opening = manager.open({ id: fresh, teamId, networkEnabled: false });
      await expect(opening).rejects.toBeInstanceOf(QuotaExceededError);
      await expect(opening).rejects.toThrow(/1 of 1 sandboxes running/);

      // No api listens here: the status announcement goes nowhere.
      const bus = { publishWorkspaceStatus: async () => undefined } as unknown as EventBusRepository;
      await new WorkspaceLifecycleJob(new WorkspaceRepository(prisma), manager, bus).setup({ workspaceId: fresh });
      const [row] = await sql<{ status: string; statusMessage: string | null }>('SELECT status, "statusMessage" FROM "Workspace" WHERE id = $1', [fresh]);
      expect(row).toEqual({ status: 'ready', statusMessage: null });
      expect(await sql('SELECT id FROM "Sandbox" WHERE "workspaceId" = $1', [fresh])).toEqual([]);
    });
  });
});
