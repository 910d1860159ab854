import { QUEUE_BOARD_PATH } from '@h/contracts';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { bearerClient, createToken, createWorkspace, errorCode, invite, sql, TeamFixture, teamWithRoles } from './team-fixture';

/** Marks a workspace's sandbox running in the database, the way the worker records a started one (as quotas.int-spec does). */
async function markSandboxRunning(workspaceId: string): Promise<void> {
  await sql(
    `INSERT INTO "Sandbox" (id, "workspaceId", driver, "volumeName", image, status, "updatedAt")
     VALUES (gen_random_uuid(), $1, 'docker', $2, 'test', 'running', now())
     ON CONFLICT ("workspaceId") DO UPDATE SET status = 'running', "updatedAt" = now()`,
    [workspaceId, `vol-${workspaceId}`],
  );
}

interface Entry {
  id: string;
  action: string;
  actorUserId: string | null;
  actorName: string | null;
  createdAt: string;
}

// Issue 15, point 3: the instance pages and Bull Board for instance admins, and the team audit
// log's filters and paging. Who may call the /api/v1/admin routes at all is in roles.int-spec.
describe('instance admin views', () => {
  let stack: TestStack;
  let f: TeamFixture;

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'admin-views');
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('instance API', () => {
    it("should list every team with its members, workspaces, running sandboxes and this month's budget", async () => {
      await markSandboxRunning(f.workspaceId);
      const res = await f.instanceAdmin.client.get('/api/v1/admin/teams');
      expect(res.status).toBe(200);
      expect(res.body.month).toMatch(/^\d{4}-\d{2}$/);
      const mine = res.body.items.find((t: { id: string }) => t.id === f.teamId);
      expect(mine).toMatchObject({ members: 4, workspaces: 1, runningSandboxes: 1, activeRuns: 0, monthRuns: 0, monthCostUsd: 0, budget: { monthlyUsd: null, exceeded: false } });
      const other = res.body.items.find((t: { id: string }) => t.id === f.outsiderTeamId);
      expect(other).toMatchObject({ members: 1, workspaces: 0, runningSandboxes: 0 });
    });

    it('should show a budget set by the team', async () => {
      expect((await f.owner.client.put(`/api/v1/teams/${f.teamId}/budget`, { monthlyUsd: 25 })).status).toBe(200);
      const res = await f.instanceAdmin.client.get('/api/v1/admin/teams');
      expect(res.body.items.find((t: { id: string }) => t.id === f.teamId).budget).toMatchObject({ monthlyUsd: 25, spentUsd: 0, remainingUsd: 25 });
    });

    it('should list the running sandbox with its workspace and team, and not a stopped one', async () => {
      const stopped = await createWorkspace(f.owner, f.teamId, 'stopped-ws');
      await markSandboxRunning(stopped);
      await sql(`UPDATE "Sandbox" SET status = 'stopped' WHERE "workspaceId" = $1`, [stopped]);
      await markSandboxRunning(f.workspaceId);
      const res = await f.instanceAdmin.client.get('/api/v1/admin/sandboxes');
      expect(res.status).toBe(200);
      const ids = res.body.items.map((s: { workspaceId: string }) => s.workspaceId);
      expect(ids).toContain(f.workspaceId);
      expect(ids).not.toContain(stopped);
      expect(res.body.items.find((s: { workspaceId: string }) => s.workspaceId === f.workspaceId)).toMatchObject({
        workspaceName: 'admin-views-ws',
        teamId: f.teamId,
        teamName: 'admin-views team',
        state: 'running',
        since: expect.any(String),
      });
    });

    it("should answer the instance's TEAM_MAX_* settings", async () => {
      const env = stack.config.env;
      const res = await f.instanceAdmin.client.get('/api/v1/admin/quotas');
      expect(res.body).toMatchObject({
        workspaces: { setting: 'TEAM_MAX_WORKSPACES', limit: env.TEAM_MAX_WORKSPACES },
        runningSandboxes: { setting: 'TEAM_MAX_RUNNING_SANDBOXES', limit: env.TEAM_MAX_RUNNING_SANDBOXES },
        activeRuns: { setting: 'TEAM_MAX_ACTIVE_RUNS', limit: env.TEAM_MAX_ACTIVE_RUNS },
      });
    });
  });

  describe('queue board', () => {
    it("should serve the board's page and its static files under the /api prefix to an instance admin", async () => {
      const page = await f.instanceAdmin.client.get(QUEUE_BOARD_PATH);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.text).toContain(`<base href="${QUEUE_BOARD_PATH}/"`);
      // Every script and stylesheet the page names loads relative to that base.
      const assets = [...page.text.matchAll(/(?:src|href)="(static\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) {
        const res = await f.instanceAdmin.client.get(`${QUEUE_BOARD_PATH}/${asset}`);
        expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
      }
    });

    it("should list H's queues in the board's API", async () => {
      const res = await f.instanceAdmin.client.get(`${QUEUE_BOARD_PATH}/api/queues`);
      expect(res.status).toBe(200);
      expect(res.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['agent', 'workspace']);
    });

    it('should refuse the page and the API to nobody (401), a team owner (403) and an API token (403)', async () => {
      const { secret } = await createToken(f.owner, f.teamId, { scopes: ['read', 'write', 'admin'] });
      const callers: [string, HttpClient][] = [
        ['anonymous', new HttpClient(stack.url)],
        ['owner', f.owner.client],
        ['token', bearerClient(stack.url, secret)],
      ];
      const answers: unknown[] = [];
      for (const [who, client] of callers) {
        for (const path of [QUEUE_BOARD_PATH, `${QUEUE_BOARD_PATH}/api/queues`, `${QUEUE_BOARD_PATH}/static/missing.js`]) {
          const res = await client.get(path);
          answers.push({ who, path, status: res.status, code: errorCode(res) });
        }
      }
      const expected = { anonymous: [401, 'UNAUTHENTICATED'], owner: [403, 'INSTANCE_ADMIN_ONLY'], token: [403, 'TOKEN_NOT_ALLOWED'] } as const;
      expect(answers).toEqual(
        callers.flatMap(([who]) =>
          [QUEUE_BOARD_PATH, `${QUEUE_BOARD_PATH}/api/queues`, `${QUEUE_BOARD_PATH}/static/missing.js`].map((path) => ({ who, path, status: expected[who as keyof typeof expected][0], code: expected[who as keyof typeof expected][1] })),
        ),
      );
    });

    it("should need the CSRF header for the board's writes, and pause and resume a queue with it", async () => {
      const admin = f.instanceAdmin.client;
      const pause = `${QUEUE_BOARD_PATH}/api/queues/workspace/pause`;
      admin.sendCsrf = false;
      const refused = await admin.put(pause);
      admin.sendCsrf = true;
      expect([refused.status, errorCode(refused)]).toEqual([403, 'CSRF_FAILED']);
      const isPaused = async () => (await admin.get(`${QUEUE_BOARD_PATH}/api/queues`)).body.queues.find((q: { name: string }) => q.name === 'workspace').isPaused;
      expect(await isPaused()).toBe(false);
      const paused = await admin.put(pause);
      expect({ status: paused.status, text: paused.text.slice(0, 300) }).toMatchObject({ status: 200 });
      expect(await isPaused()).toBe(true);
      expect((await admin.put(`${QUEUE_BOARD_PATH}/api/queues/workspace/resume`)).status).toBe(200);
      expect(await isPaused()).toBe(false);
    });

    it("should give the board's page the CSRF token under axios' names and take it back in X-XSRF-TOKEN", async () => {
      const admin = f.instanceAdmin.client;
      await admin.get(QUEUE_BOARD_PATH);
      const xsrf = admin.cookies.get('XSRF-TOKEN');
      expect(xsrf).toBe(admin.cookies.get('h_csrf'));
      admin.sendCsrf = false;
      try {
        const pause = `${QUEUE_BOARD_PATH}/api/queues/agent/pause`;
        const wrong = await admin.request('PUT', pause, '{}', { 'x-xsrf-token': 'not-the-token' });
        expect([wrong.status, errorCode(wrong)]).toEqual([403, 'CSRF_FAILED']);
        expect((await admin.request('PUT', pause, '{}', { 'x-xsrf-token': xsrf as string })).status).toBe(200);
        expect((await admin.request('PUT', `${QUEUE_BOARD_PATH}/api/queues/agent/resume`, '{}', { 'x-xsrf-token': xsrf as string })).status).toBe(200);
      } finally {
        admin.sendCsrf = true;
      }
    });
  });

  describe('team audit log filters', () => {
    const audit = (query: string) => f.owner.client.get(`/api/v1/teams/${f.teamId}/audit${query}`);
    let all: Entry[];

    beforeAll(async () => {
      // Known entries by two people: tokens by the owner, invitations by the owner and the admin.
      await createToken(f.owner, f.teamId, { name: 'audit-a' });
      await invite(f.admin, f.teamId, { role: 'viewer' });
      await createToken(f.owner, f.teamId, { name: 'audit-b' });
      await invite(f.owner, f.teamId, { role: 'viewer' });
      const res = await audit('?limit=200');
      expect(res.body.nextCursor).toBeNull();
      all = res.body.items;
    });

    it('should filter by action, an action prefix and a person, and name the actor', async () => {
      const tokens = (await audit('?action=token')).body.items as Entry[];
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      expect(tokens.map((e) => e.id)).toEqual(all.filter((e) => e.action.startsWith('token.')).map((e) => e.id));
      expect(tokens.every((e) => e.actorUserId === f.owner.userId && e.actorName === 'admin-views-owner')).toBe(true);
      const exact = (await audit('?action=member.invite')).body.items as Entry[];
      expect(exact.map((e) => e.id)).toEqual(all.filter((e) => e.action === 'member.invite').map((e) => e.id));
      const byAdmin = (await audit(`?actorUserId=${f.admin.userId}`)).body.items as Entry[];
      expect(byAdmin.map((e) => e.action)).toEqual(['member.invite', 'member.join']);
      const both = (await audit(`?actorUserId=${f.owner.userId}&action=member.invite`)).body.items as Entry[];
      expect(both.map((e) => e.id)).toEqual(all.filter((e) => e.action === 'member.invite' && e.actorUserId === f.owner.userId).map((e) => e.id));
    });

    it('should keep entries from `from` (inclusive) to `to` (exclusive)', async () => {
      // Bounds taken from the entries themselves, so the check does not depend on clocks.
      const oldestFirst = [...all].reverse();
      const from = oldestFirst[1].createdAt;
      const to = oldestFirst[oldestFirst.length - 1].createdAt;
      const res = await audit(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      const expected = all.filter((e) => e.createdAt >= from && e.createdAt < to).map((e) => e.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(res.body.items.map((e: Entry) => e.id)).toEqual(expected);
    });

    it('should page through every entry with nextCursor, and end with null', async () => {
      const seen: string[] = [];
      let cursor: string | null = '';
      let pages = 0;
      while (cursor !== null) {
        const res = await audit(`?limit=2${cursor ? `&before=${cursor}` : ''}`);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((e: Entry) => e.id));
        cursor = res.body.nextCursor;
        pages += 1;
      }
      expect(seen).toEqual(all.map((e) => e.id));
      expect(pages).toBe(Math.ceil(all.length / 2));
      // Filters hold across pages: the member.invite entries one at a time.
      const invites = all.filter((e) => e.action === 'member.invite').map((e) => e.id);
      const filtered: string[] = [];
      for (let before = ''; ; ) {
        const res = await audit(`?action=member.invite&limit=1${before ? `&before=${before}` : ''}`);
        filtered.push(...res.body.items.map((e: Entry) => e.id));
        if (res.body.nextCursor === null) break;
        before = res.body.nextCursor;
      }
      expect(filtered).toEqual(invites);
    });

    it('should refuse a page larger than 200 and malformed filters with 400', async () => {
      const answers = await Promise.all(['?limit=201', '?action=Token%20Create', '?actorUserId=someone', '?from=yesterday'].map((q) => audit(q)));
      expect(answers.map((r) => [r.status, errorCode(r)])).toEqual(Array(4).fill([400, 'VALIDATION_FAILED']));
    });
  });
});
