import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient, HttpResponse, signedUpClient } from '../../support/http-client';
import { documentedRoutes, fetchDocument, RouteSpec, ROUTES, sendRoute } from './route-table';
import { addPerson, bearerClient, createToken, errorCode, Person, Role, ROLES_LOW_TO_HIGH, TeamFixture, teamWithRoles } from './team-fixture';

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

// Table-driven: every route in route-table.ts (which must match /api/docs-json exactly) is called
// anonymously, by an outsider and by each role of a team, and must answer as its entry says.
describe('access control on every route', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const seen: { key: string; who: string; status: number; text: string }[] = [];

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'roles');
  });

  afterAll(async () => {
    await stack?.close();
  });

  let ownerToken: Promise<{ secret: string }> | undefined;
  const adminToken = () => (ownerToken ??= createToken(f.owner, f.teamId, { scopes: ['read', 'write', 'admin'] }));

  async function call(key: string, spec: RouteSpec, who: string, actor: Person | null): Promise<HttpResponse> {
    const req = await spec.prepare(f, actor);
    const res = await sendRoute(req.client ?? actor?.client ?? new HttpClient(stack.url), key, spec, req);
    seen.push({ key, who, status: res.status, text: res.text.slice(0, 200) });
    return res;
  }

  it('should have a table entry for every documented route, and no entry for a route that does not exist', async () => {
    const routes = documentedRoutes(await fetchDocument(stack.url));
    const documented = routes.map((r) => r.key);
    expect(documented.filter((k) => !(k in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((k) => !documented.includes(k))).toEqual([]);
    // The status each entry expects is the one the docs promise, so a success below proves both.
    const mismatched = routes
      .filter((r) => r.key in ROUTES)
      .map((r) => ({ route: r.key, documented: Number(Object.keys(r.op.responses ?? {}).filter((c) => /^2/.test(c)).sort()[0]) }))
      .filter((r) => r.documented !== ROUTES[r.route].success);
    expect(mismatched).toEqual([]);
  });

  it('should require at least the member role for every write to team data', () => {
    // A write a viewer may make (their own IDE state in a workspace they can read) is a deliberate
    // choice, so its entry must say why.
    const readOnlyWrites = Object.entries(ROUTES).filter(
      ([key, spec]) => !key.startsWith('GET ') && spec.access.kind === 'team' && spec.access.minRole === 'viewer' && !spec.access.why,
    );
    expect(readOnlyWrites.map(([k]) => k)).toEqual([]);
    // A read that a viewer may not make is a deliberate choice, so its entry must say why.
    const guardedReads = Object.entries(ROUTES).filter(
      ([key, spec]) => key.startsWith('GET ') && spec.access.kind === 'team' && spec.access.minRole !== 'viewer' && !spec.access.why,
    );
    expect(guardedReads.map(([k]) => k)).toEqual([]);
  });

  describe.each(Object.entries(ROUTES))('%s', (key, spec) => {
    const { access } = spec;

    if (access.kind === 'public') {
      it('should succeed without signing in when the route is public', async () => {
        const res = await call(key, spec, 'anonymous', null);
        expect(res.status).toBe(spec.success);
      });
      return;
    }

    if (access.kind === 'h2c') {
      it('should answer 401 unauthorized to nobody and to a signed-in browser (h2c routes take API tokens)', async () => {
        const anonymous = await call(key, spec, 'anonymous', null);
        expect([anonymous.status, errorCode(anonymous)]).toEqual([401, 'unauthorized']);
        const browser = await sendRoute(f.owner.client, key, spec, await spec.prepare(f, null));
        expect([browser.status, errorCode(browser)]).toEqual([401, 'unauthorized']);
      });

      it("should refuse another team's token without revealing the task", async () => {
        const res = await call(key, spec, 'outsider', f.outsider);
        const expected = access.outsider ?? { status: 404, code: 'not_found' };
        expect({ status: res.status, code: errorCode(res) }).toEqual(expected);
      });

      it.each(ROLES_LOW_TO_HIGH)(`should let a token of the %s role through only when it acts as at least ${access.minRole}`, async (role) => {
        const res = await call(key, spec, role, f.byRole(role));
        if (RANK[role] >= RANK[access.minRole]) {
          expect({ role, status: res.status, text: res.text.slice(0, 200) }).toMatchObject({ status: spec.success });
        } else {
          // A viewer's token holds `read` at most (a viewer cannot make a `run` token), so the scope check refuses it first.
          const code = role === 'viewer' && access.scope !== 'read' ? 'insufficient_scope' : 'forbidden';
          expect({ role, status: res.status, code: errorCode(res) }).toEqual({ role, status: 403, code });
        }
      });
      return;
    }

    if (access.kind === 'mcp') {
      it('should answer 401 to nobody, and 403 TOKEN_NOT_WORKSPACE_BOUND to a browser session and a team-wide token', async () => {
        const anonymous = await call(key, spec, 'anonymous', null);
        expect([anonymous.status, errorCode(anonymous)]).toEqual([401, 'UNAUTHENTICATED']);
        const req = await spec.prepare(f, null);
        const browser = await sendRoute(f.owner.client, key, spec, req);
        expect([browser.status, errorCode(browser)]).toEqual([403, 'TOKEN_NOT_WORKSPACE_BOUND']);
        const teamWide = await sendRoute(bearerClient(stack.url, (await adminToken()).secret), key, spec, req);
        expect([teamWide.status, errorCode(teamWide)]).toEqual([403, 'TOKEN_NOT_WORKSPACE_BOUND']);
      });

      it.each(ROLES_LOW_TO_HIGH)('should let a token of the %s role bound to the workspace through', async (role) => {
        const res = await call(key, spec, role, f.byRole(role));
        expect({ role, status: res.status, text: res.text.slice(0, 200) }).toMatchObject({ status: spec.success });
      });
      return;
    }

    it('should answer 401 UNAUTHENTICATED when nobody is signed in', async () => {
      const res = await call(key, spec, 'anonymous', null);
      expect(res.status).toBe(401);
      expect(errorCode(res)).toBe('UNAUTHENTICATED');
    });

    if (access.kind === 'user-only' || access.kind === 'instance-admin' || (access.kind === 'team' && access.userOnly)) {
      it('should answer 403 TOKEN_NOT_ALLOWED to an admin-scoped token of an owner when the route is for signed-in users', async () => {
        const res = await sendRoute(bearerClient(stack.url, (await adminToken()).secret), key, spec, await spec.prepare(f, f.owner));
        seen.push({ key, who: 'admin token', status: res.status, text: res.text.slice(0, 200) });
        expect({ status: res.status, code: errorCode(res) }).toEqual({ status: 403, code: 'TOKEN_NOT_ALLOWED' });
      });
    }

    if (access.kind === 'instance-admin') {
      it('should answer 403 INSTANCE_ADMIN_ONLY to a team owner and an outsider, and succeed for an instance admin', async () => {
        const refused = [await call(key, spec, 'owner', f.owner), await call(key, spec, 'outsider', f.outsider)];
        expect(refused.map((res) => [res.status, errorCode(res)])).toEqual([
          [403, 'INSTANCE_ADMIN_ONLY'],
          [403, 'INSTANCE_ADMIN_ONLY'],
        ]);
        const res = await call(key, spec, 'instance admin', f.instanceAdmin);
        expect({ status: res.status, text: res.text.slice(0, 200) }).toMatchObject({ status: spec.success });
      });
      return;
    }

    if (access.kind === 'authenticated' || access.kind === 'user-only') {
      it('should succeed for any signed-in user when the route is not about one team', async () => {
        const res = await call(key, spec, 'outsider', f.outsider);
        expect(res.status).toBe(spec.success);
      });
      return;
    }

    it('should answer 404 to a member of another team, never revealing the resource', async () => {
      const res = await call(key, spec, 'outsider', f.outsider);
      expect(res.status).toBe(404);
      expect(errorCode(res)).toMatch(/NOT_FOUND$/);
    });

    it.each(ROLES_LOW_TO_HIGH)(`should let the %s role through only when it is at least ${access.minRole}`, async (role) => {
      const res = await call(key, spec, role, f.byRole(role));
      if (RANK[role] >= RANK[access.minRole]) {
        expect({ role, status: res.status, text: res.text.slice(0, 200) }).toMatchObject({ status: spec.success });
      } else {
        expect({ role, status: res.status }).toEqual({ role, status: 403 });
        expect(errorCode(res)).toBe('FORBIDDEN');
      }
    });
  });

  describe('rules inside a route', () => {
    let g: TeamFixture;
    const members = (p = '') => `/api/v1/teams/${g.teamId}/members${p}`;

    beforeAll(async () => {
      g = await teamWithRoles(stack.url, 'rules');
    });

    it('should keep admins from granting, changing or removing the owner role', async () => {
      const newcomer = await addPerson(stack.url, g.owner, g.teamId, 'viewer', 'would-be-owner');
      const attempts = [
        await g.admin.client.patch(members(`/${newcomer.userId}`), { role: 'owner' }),
        await g.admin.client.patch(members(`/${g.owner.userId}`), { role: 'viewer' }),
        await g.admin.client.delete(members(`/${g.owner.userId}`)),
      ];
      expect(attempts.map((r) => r.status)).toEqual([403, 403, 403]);
      const roles = (await g.owner.client.get(members())).body.items.map((m: { userId: string; role: string }) => [m.userId, m.role]);
      expect(roles).toEqual(expect.arrayContaining([[g.owner.userId, 'owner'], [newcomer.userId, 'viewer']]));
    });

    it('should refuse to leave a team without an owner (409 LAST_OWNER) and allow it once there are two', async () => {
      const demote = await g.owner.client.patch(members(`/${g.owner.userId}`), { role: 'admin' });
      const leave = await g.owner.client.delete(members(`/${g.owner.userId}`));
      expect([demote.status, leave.status]).toEqual([409, 409]);
      expect([errorCode(demote), errorCode(leave)]).toEqual(['LAST_OWNER', 'LAST_OWNER']);

      const second = await addPerson(stack.url, g.owner, g.teamId, 'owner', 'co-owner');
      expect((await second.client.patch(members(`/${g.owner.userId}`), { role: 'admin' })).status).toBe(200);
      expect((await second.client.patch(members(`/${g.owner.userId}`), { role: 'owner' })).status).toBe(200);
    });

    it('should answer an invitation to an email the same whether it has an account or not, and 409 ALREADY_MEMBER for a member', async () => {
      const someone = await signedUpClient(stack.url, 'has-account');
      const answers = [
        await g.owner.client.post(members(), { email: someone.email, role: 'viewer' }),
        await g.owner.client.post(members(), { email: 'nobody-here@example.test', role: 'viewer' }),
      ];
      expect(answers.map((r) => r.status)).toEqual([201, 201]);
      // Same shape and keys: nothing in the answer depends on the email having an account.
      const shape = (r: HttpResponse) => Object.keys(r.body.invitation).sort().join() + '|' + Object.keys(r.body).sort().join();
      expect(shape(answers[0])).toBe(shape(answers[1]));
      const again = await g.owner.client.post(members(), { email: g.member.email.toUpperCase(), role: 'viewer' });
      expect(again.status).toBe(409);
      expect(errorCode(again)).toBe('ALREADY_MEMBER');
    });

    it("should answer 404 when an admin targets a person who is not in the admin's team", async () => {
      for (const res of [
        await g.admin.client.patch(members(`/${g.outsider.userId}`), { role: 'member' }),
        await g.admin.client.delete(members(`/${g.outsider.userId}`)),
      ]) {
        expect(res.status).toBe(404);
      }
      expect((await g.outsider.client.get(`/api/v1/teams/${g.outsiderTeamId}`)).body.role).toBe('owner');
    });

    it('should cut a removed member off at once', async () => {
      const leaving = await addPerson(stack.url, g.owner, g.teamId, 'member', 'leaving');
      expect((await leaving.client.get(`/api/v1/workspaces/${g.workspaceId}`)).status).toBe(200);
      expect((await g.admin.client.delete(members(`/${leaving.userId}`))).status).toBe(204);
      expect((await leaving.client.get(`/api/v1/workspaces/${g.workspaceId}`)).status).toBe(404);
      expect((await leaving.client.get('/api/v1/teams')).body.items).toEqual([]);
    });

    it('should let only admins turn sandbox network access on', async () => {
      const path = `/api/v1/workspaces/${g.workspaceId}`;
      const byMember = await g.member.client.patch(path, { networkEnabled: true });
      expect(byMember.status).toBe(403);
      expect((await g.viewer.client.get(path)).body.networkEnabled).toBe(false);
      const byAdmin = await g.admin.client.patch(path, { networkEnabled: true });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.networkEnabled).toBe(true);
    });
  });

  it('should never have answered with a 5xx', () => {
    expect(seen.length).toBeGreaterThan(Object.keys(ROUTES).length);
    expect(seen.filter((s) => s.status >= 500)).toEqual([]);
  });
});
