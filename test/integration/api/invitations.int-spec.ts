import { createHash } from 'node:crypto';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { HttpClient, signedUpClient } from '../../support/http-client';
import { readSse } from '../runs/stream-clients';
import { newSession } from './route-table';
import {
  addPerson,
  bearerClient,
  createTeam,
  createToken,
  errorCode,
  invite,
  Person,
  ResponseLog,
  sql,
  TeamFixture,
  teamWithRoles,
} from './team-fixture';

const HEARTBEAT_MS = 1000;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

// Issue 8, point 6: people join by invitation links, member management is for signed-in people,
// removal revokes tokens, and the last owner cannot be lost to a race.
describe('invitations and membership', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const log = new ResponseLog();

  beforeAll(async () => {
    stack = await startStack({ env: { SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
    f = await teamWithRoles(stack.url, 'invites');
    for (const p of [f.owner, f.admin, f.member, f.viewer, f.outsider]) log.watch(p.client);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const teamPath = (p = '') => `/api/v1/teams/${f.teamId}${p}`;
  const accept = (client: HttpClient, token: string) => client.post('/api/v1/invitations/accept', { token });
  const roleOf = async (userId: string) => (await f.owner.client.get(teamPath('/members'))).body.items.find((m: { userId: string }) => m.userId === userId)?.role;

  describe('invitation links', () => {
    it('should show the link once and store only its hash', async () => {
      const res = await f.admin.client.post(teamPath('/members'), { role: 'member', maxUses: 2, expiresInDays: 3 });
      expect(res.status).toBe(201);
      const { token, url, invitation } = res.body;
      expect(url).toMatch(new RegExp(`/invite/${token}$`));
      expect(invitation).toMatchObject({ role: 'member', maxUses: 2, uses: 0, email: null });
      const list = await f.admin.client.get(teamPath('/invitations'));
      expect(list.body.items.map((i: { id: string }) => i.id)).toContain(invitation.id);
      expect(log.containing(token)).toEqual([`POST ${teamPath('/members')} -> 201`]);
      const [row] = await sql<Record<string, unknown>>('SELECT * FROM "Invitation" WHERE id = $1', [invitation.id]);
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.tokenHash).toBe(sha256(token));
    });

    it('should add nobody when an admin names an email: the member list is unchanged until the invitee accepts', async () => {
      const someone = await signedUpClient(stack.url, 'named');
      const res = await f.admin.client.post(teamPath('/members'), { email: someone.email, role: 'member' });
      expect(res.status).toBe(201);
      expect(await roleOf(someone.userId)).toBeUndefined();
      expect((await someone.client.get(`/api/v1/workspaces/${f.workspaceId}`)).status).toBe(404);
      expect((await accept(someone.client, res.body.token)).status).toBe(200);
      expect(await roleOf(someone.userId)).toBe('member');
    });

    it('should show the team and role to whoever holds the link, before any sign-in', async () => {
      const token = await invite(f.owner, f.teamId, { role: 'viewer', email: 'Preview@Example.test' });
      const res = await new HttpClient(stack.url).post('/api/v1/invitations/lookup', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ teamName: 'invites team', role: 'viewer', email: 'preview@example.test', invitedBy: 'invites-owner', expiresAt: expect.any(String) });
    });

    it('should admit exactly one of several people racing for a single-use link', async () => {
      const token = await invite(f.owner, f.teamId, { role: 'viewer' });
      const racers = await Promise.all(Array.from({ length: 5 }, (_, i) => signedUpClient(stack.url, `racer-${i}`)));
      const answers = await Promise.all(racers.map((r) => accept(r.client, token)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
      expect(answers.filter((a) => a.status === 404).map(errorCode)).toEqual(Array(4).fill('INVITATION_INVALID'));
      const joined = (await Promise.all(racers.map((r) => roleOf(r.userId)))).filter(Boolean);
      expect(joined).toEqual(['viewer']);
    });

    it('should take as many people as maxUses allows, then none', async () => {
      const token = await invite(f.owner, f.teamId, { role: 'member', maxUses: 2 });
      const people = await Promise.all([0, 1, 2].map((i) => signedUpClient(stack.url, `multi-${i}`)));
      const statuses = [];
      for (const p of people) statuses.push((await accept(p.client, token)).status);
      expect(statuses).toEqual([200, 200, 404]);
    });

    it('should keep an email-bound link to that email, whatever its letter case', async () => {
      const grace = await signedUpClient(stack.url, 'grace');
      const other = await signedUpClient(stack.url, 'not-grace');
      const token = await invite(f.admin, f.teamId, { role: 'member', email: grace.email.toUpperCase() });
      const wrong = await accept(other.client, token);
      expect(wrong.status).toBe(403);
      expect(errorCode(wrong)).toBe('INVITATION_EMAIL_MISMATCH');
      expect((await accept(grace.client, token)).status).toBe(200);
      expect(await roleOf(grace.userId)).toBe('member');
    });

    it('should refuse expired and revoked links and leave them out of the pending list', async () => {
      const expired = await f.owner.client.post(teamPath('/members'), { role: 'viewer' });
      await sql(`UPDATE "Invitation" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [expired.body.invitation.id]);
      const revoked = await f.owner.client.post(teamPath('/members'), { role: 'viewer' });
      expect((await f.admin.client.delete(teamPath(`/invitations/${revoked.body.invitation.id}`))).status).toBe(204);
      const someone = await signedUpClient(stack.url, 'too-late');
      for (const token of [expired.body.token, revoked.body.token]) {
        for (const res of [await accept(someone.client, token), await new HttpClient(stack.url).post('/api/v1/invitations/lookup', { token })]) {
          expect(res.status).toBe(404);
          expect(errorCode(res)).toBe('INVITATION_INVALID');
        }
      }
      const pending = (await f.owner.client.get(teamPath('/invitations'))).body.items.map((i: { id: string }) => i.id);
      expect(pending).not.toContain(expired.body.invitation.id);
      expect(pending).not.toContain(revoked.body.invitation.id);
      expect((await f.admin.client.delete(teamPath(`/invitations/${revoked.body.invitation.id}`))).status).toBe(404);
    });

    it('should let only owners invite owners, and answer 409 ALREADY_MEMBER without using up the link', async () => {
      const byAdmin = await f.admin.client.post(teamPath('/members'), { role: 'owner' });
      expect(byAdmin.status).toBe(403);
      const token = await invite(f.owner, f.teamId, { role: 'viewer' });
      const again = await accept(f.member.client, token);
      expect(again.status).toBe(409);
      expect(errorCode(again)).toBe('ALREADY_MEMBER');
      expect(await roleOf(f.member.userId)).toBe('member');
      const newcomer = await signedUpClient(stack.url, 'after-member');
      expect((await accept(newcomer.client, token)).status).toBe(200);
    });

    it("should answer 404 when an admin revokes another team's invitation through their own team", async () => {
      const foreign = await f.outsider.client.post(`/api/v1/teams/${f.outsiderTeamId}/members`, { role: 'viewer' });
      expect((await f.owner.client.delete(teamPath(`/invitations/${foreign.body.invitation.id}`))).status).toBe(404);
      expect((await new HttpClient(stack.url).post('/api/v1/invitations/lookup', { token: foreign.body.token })).status).toBe(200);
    });
  });

  describe('membership is managed by signed-in people only', () => {
    it('should refuse a read token that tries to remove its creator from the team (403 TOKEN_NOT_ALLOWED)', async () => {
      const person = await addPerson(stack.url, f.owner, f.teamId, 'member', 'token-leaver');
      const { secret } = await createToken(person, f.teamId, { scopes: ['read'] });
      const res = await bearerClient(stack.url, secret).delete(teamPath(`/members/${person.userId}`));
      expect(res.status).toBe(403);
      expect(errorCode(res)).toBe('TOKEN_NOT_ALLOWED');
      expect(await roleOf(person.userId)).toBe('member');
    });

    it('should refuse an admin-scoped token every member change: roles, removals, invitations', async () => {
      const target = await addPerson(stack.url, f.owner, f.teamId, 'viewer', 'token-target');
      const bot = bearerClient(stack.url, (await createToken(f.owner, f.teamId, { scopes: ['read', 'write', 'admin'] })).secret);
      const attempts = [
        await bot.patch(teamPath(`/members/${target.userId}`), { role: 'admin' }),
        await bot.delete(teamPath(`/members/${target.userId}`)),
        await bot.post(teamPath('/members'), { role: 'admin' }),
        await bot.get(teamPath('/invitations')),
        await bot.post('/api/v1/invitations/accept', { token: await invite(f.outsider, f.outsiderTeamId, { role: 'owner' }) }),
      ];
      expect(attempts.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
      expect(attempts.map(errorCode)).toEqual(Array(5).fill('TOKEN_NOT_ALLOWED'));
      expect(await roleOf(target.userId)).toBe('viewer');
    });
  });

  describe('removing a member', () => {
    it('should revoke their tokens for the team, for good, and end their token streams', async () => {
      const leaving = await addPerson(stack.url, f.owner, f.teamId, 'member', 'removed-with-tokens');
      const tokens = [await createToken(leaving, f.teamId, { scopes: ['read'] }), await createToken(leaving, f.teamId, { scopes: ['read', 'write'] })];
      const othersToken = await createToken(f.member, f.teamId, { scopes: ['read'] });
      const sessionId = await newSession(f);
      let frames = 0;
      let ended: { status: number } | undefined;
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 60_000).unref();
      void readSse(stack.url, `/api/v1/sessions/${sessionId}/events/stream`, bearerClient(stack.url, tokens[0].secret), () => frames++, {
        signal: abort.signal,
      }).then((r) => (ended = r));
      await waitFor('the stream to open', async () => frames > 0 || ended);
      expect(ended).toBeUndefined();

      expect((await f.admin.client.delete(teamPath(`/members/${leaving.userId}`))).status).toBe(204);
      for (const t of tokens) expect((await bearerClient(stack.url, t.secret).get(teamPath())).status).toBe(401);
      const rows = await sql<{ revokedAt: Date | null }>('SELECT "revokedAt" FROM "ApiToken" WHERE id = ANY($1::uuid[])', [tokens.map((t) => t.id)]);
      expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
      expect((await bearerClient(stack.url, othersToken.secret).get(teamPath())).status).toBe(200);
      expect(await waitFor('the removed member’s SSE stream to end', async () => ended, 10 * HEARTBEAT_MS)).toEqual({ status: 200 });

      // Invited back, they start over: the old tokens stay dead.
      expect((await accept(leaving.client, await invite(f.owner, f.teamId, { role: 'member' }))).status).toBe(200);
      for (const t of tokens) expect((await bearerClient(stack.url, t.secret).get(teamPath())).status).toBe(401);
    });

    it('should revoke the tokens of someone who leaves on their own', async () => {
      const leaver = await addPerson(stack.url, f.owner, f.teamId, 'member', 'self-leaver');
      const mine = await createToken(leaver, f.teamId, { scopes: ['read'] });
      const others = await createToken(f.owner, f.teamId, { scopes: ['read'] });
      expect((await leaver.client.delete(teamPath(`/members/${leaver.userId}`))).status).toBe(204);
      expect((await bearerClient(stack.url, mine.secret).get(teamPath())).status).toBe(401);
      expect((await bearerClient(stack.url, others.secret).get(teamPath())).status).toBe(200);
    });
  });

  describe('the last owner', () => {
    async function teamsWithTwoOwners(n: number): Promise<{ teamId: string; a: Person; b: Person }[]> {
      return Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const a = await signedUpClient(stack.url, `owner-a-${i}`);
          const teamId = await createTeam(a, `two owners ${i}`);
          const b = await addPerson(stack.url, a, teamId, 'owner', `owner-b-${i}`);
          return { teamId, a, b };
        }),
      );
    }
    const owners = async (teamId: string) =>
      (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "Membership" WHERE "teamId" = $1 AND role = 'owner'`, [teamId]))[0].n;

    it('should keep an owner when two owners demote each other at the same moment', async () => {
      const teams = await teamsWithTwoOwners(6);
      const results = await Promise.all(
        teams.map(async ({ teamId, a, b }) => {
          const path = (u: string) => `/api/v1/teams/${teamId}/members/${u}`;
          const [x, y] = await Promise.all([a.client.patch(path(b.userId), { role: 'admin' }), b.client.patch(path(a.userId), { role: 'admin' })]);
          return { statuses: [x.status, y.status].sort(), owners: await owners(teamId) };
        }),
      );
      // The loser is refused: 409 LAST_OWNER when the two overlap, 403 when the winner finished
      // first (the loser is no longer an owner, so may not touch one). Never two successes.
      for (const r of results) {
        expect(r.owners).toBe(1);
        expect(r.statuses[0]).toBe(200);
        expect([403, 409]).toContain(r.statuses[1]);
      }
    });

    it('should keep an owner when two owners remove each other, or one leaves while the other steps down', async () => {
      const teams = await teamsWithTwoOwners(6);
      const results = await Promise.all(
        teams.map(async ({ teamId, a, b }, i) => {
          const path = (u: string) => `/api/v1/teams/${teamId}/members/${u}`;
          const [x, y] =
            i % 2
              ? await Promise.all([a.client.delete(path(b.userId)), b.client.delete(path(a.userId))])
              : await Promise.all([a.client.delete(path(a.userId)), b.client.patch(path(b.userId), { role: 'viewer' })]);
          return { statuses: [x.status, y.status].sort(), owners: await owners(teamId) };
        }),
      );
      // One succeeds; the other is refused (409 LAST_OWNER, or 403/404 when the first had already
      // made the loser a non-owner or removed them).
      for (const r of results) {
        expect(r.owners).toBe(1);
        expect(r.statuses[0]).toBeLessThan(300);
        expect([403, 404, 409]).toContain(r.statuses[1]);
      }
    });
  });

  it('should never have answered with a 5xx', () => {
    expect(log.responses.length).toBeGreaterThan(30);
    expect(log.responses.filter(({ res }) => res.status >= 500).map(({ path, res }) => `${path} ${res.status}`)).toEqual([]);
  });
});
