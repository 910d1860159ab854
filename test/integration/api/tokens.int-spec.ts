import { startStack, TestStack } from '../../support/api-harness';
import {
  addPerson,
  bearerClient,
  createTeam,
  createToken,
  createWorkspace,
  errorCode,
  ResponseLog,
  sql,
  TeamFixture,
  teamWithRoles,
} from './team-fixture';

const TOKEN_FORMAT = /^h_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/;

describe('API tokens', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const log = new ResponseLog();

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'tokens');
    for (const p of [f.owner, f.admin, f.member, f.viewer, f.outsider]) log.watch(p.client);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const bearer = (secret: string) => log.watch(bearerClient(stack.url, secret));
  const teamPath = (p = '') => `/api/v1/teams/${f.teamId}${p}`;

  it('should show the secret once at creation and never again in lists, other answers or the database', async () => {
    const created = await f.member.client.post(teamPath('/tokens'), { name: 'ci-bot', scopes: ['read', 'write'] });
    expect(created.status).toBe(201);
    const { secret, token } = created.body;
    expect(secret).toMatch(TOKEN_FORMAT);
    expect(secret.startsWith(`h_${token.prefix}_`)).toBe(true);
    expect(token).toMatchObject({ name: 'ci-bot', scopes: ['read', 'write'], workspaceId: null, expiresAt: null });

    const list = await f.member.client.get(teamPath('/tokens'));
    const listed = list.body.items.find((t: { id: string }) => t.id === token.id);
    expect(listed).toMatchObject({ id: token.id, prefix: token.prefix, name: 'ci-bot' });
    expect(listed).not.toHaveProperty('secret');
    expect(listed).not.toHaveProperty('secretHash');

    // Use it, so every answer that might echo it has been produced at least once.
    expect((await bearer(secret).get('/api/v1/me')).status).toBe(200);
    await f.owner.client.get(teamPath('/audit?limit=200'));
    const after = await f.member.client.get(teamPath('/tokens'));
    expect(after.body.items.find((t: { id: string }) => t.id === token.id).lastUsedAt).toEqual(expect.any(String));

    expect(log.containing(secret)).toEqual([`POST ${teamPath('/tokens')} -> 201`]);
    const [row] = await sql<Record<string, unknown>>('SELECT * FROM "ApiToken" WHERE id = $1', [token.id]);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(secret.replace(/^h_[A-Za-z0-9]{12}_/, ''));
  });

  it('should accept a bearer token for writes without any cookie or CSRF header', async () => {
    const { secret } = await createToken(f.member, f.teamId, { scopes: ['write'] });
    const bot = bearer(secret);
    const res = await bot.post(teamPath('/workspaces'), { name: 'made-by-bot' });
    expect(res.status).toBe(201);
    expect(bot.cookies.size).toBe(0);
    const me = await bot.get('/api/v1/me');
    expect(me.body).toMatchObject({ user: { id: f.member.userId }, via: 'token', teams: [{ id: f.teamId, role: 'member' }], token: { scopes: ['write'], workspaceId: null } });
  });

  it('should let a member mint a run token that drives the agent but edits nothing directly, and say so on /me', async () => {
    const { secret } = await createToken(f.member, f.teamId, { scopes: ['run'] });
    const bot = bearer(secret);
    expect((await bot.get('/api/v1/me')).body).toMatchObject({ teams: [{ id: f.teamId, role: 'member' }], token: { scopes: ['run'] } });
    const session = await bot.post(`/api/v1/workspaces/${f.workspaceId}/sessions`, { title: 'ci' });
    expect(session.status).toBe(201);
    expect((await bot.post(`/api/v1/sessions/${session.body.id}/messages`, { content: 'fix the tests' })).status).toBe(202);
    const edit = await bot.patch(`/api/v1/sessions/${session.body.id}`, { title: 'renamed' });
    expect({ status: edit.status, code: errorCode(edit) }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect((await f.viewer.client.post(teamPath('/tokens'), { name: 'viewer-run', scopes: ['run'] })).status).toBe(403);
  });

  it('should answer 401 to a bearer value that is not a live token', async () => {
    const { secret } = await createToken(f.member, f.teamId);
    const tampered = secret.slice(0, -4) + (secret.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const value of [tampered, 'h_notatoken', 'garbage']) {
      const res = await bearerClient(stack.url, value).get(teamPath());
      expect({ value, status: res.status }).toEqual({ value, status: 401 });
      expect(errorCode(res)).toBe('UNAUTHENTICATED');
    }
  });

  it('should stop a token at once when it is revoked', async () => {
    const { id, secret } = await createToken(f.member, f.teamId);
    const bot = bearer(secret);
    expect((await bot.get(teamPath('/workspaces'))).status).toBe(200);

    expect((await f.member.client.delete(teamPath(`/tokens/${id}`))).status).toBe(204);
    const res = await bot.get(teamPath('/workspaces'));
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('UNAUTHENTICATED');
    const list = await f.member.client.get(teamPath('/tokens'));
    expect(list.body.items.map((t: { id: string }) => t.id)).not.toContain(id);
  });

  it('should answer 401 once a token has expired', async () => {
    const { id, secret } = await createToken(f.member, f.teamId, { expiresInDays: 1 });
    const bot = bearer(secret);
    expect((await bot.get(teamPath())).status).toBe(200);
    // Time passes: move the expiry into the past instead of waiting a day.
    await sql(`UPDATE "ApiToken" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [id]);
    const res = await bot.get(teamPath());
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('UNAUTHENTICATED');
  });

  it('should let a read-scoped token read but answer 403 INSUFFICIENT_SCOPE to its writes', async () => {
    const { secret } = await createToken(f.owner, f.teamId, { scopes: ['read'] });
    const bot = bearer(secret);
    expect((await bot.get(teamPath('/workspaces'))).status).toBe(200);
    expect((await bot.get(`/api/v1/workspaces/${f.workspaceId}`)).status).toBe(200);

    const writes = [
      await bot.post(teamPath('/workspaces'), { name: 'nope' }),
      await bot.patch(`/api/v1/workspaces/${f.workspaceId}`, { description: 'nope' }),
      await bot.put(teamPath('/providers/deepseek'), { apiKey: 'sk-read-scope-should-fail' }),
    ];
    expect(writes.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(writes.map(errorCode)).toEqual(['INSUFFICIENT_SCOPE', 'INSUFFICIENT_SCOPE', 'INSUFFICIENT_SCOPE']);
    expect(writes.map((r) => r.body.error.message)).toEqual([
      expect.stringContaining('the write scope'),
      expect.stringContaining('the write scope'),
      expect.stringContaining('the admin scope'),
    ]);
    const names = (await f.owner.client.get(teamPath('/workspaces'))).body.items.map((w: { name: string }) => w.name);
    expect(names).not.toContain('nope');
  });

  it('should never mint a token above its creator role', async () => {
    for (const scopes of [['read'], ['write']]) {
      const res = await f.viewer.client.post(teamPath('/tokens'), { name: 'viewer-token', scopes });
      expect({ scopes, status: res.status }).toEqual({ scopes, status: 403 });
    }
    const memberAdmin = await f.member.client.post(teamPath('/tokens'), { name: 'member-admin', scopes: ['admin'] });
    expect(memberAdmin.status).toBe(403);
    expect(errorCode(memberAdmin)).toBe('FORBIDDEN');
    expect((await f.member.client.post(teamPath('/tokens'), { name: 'member-write', scopes: ['write'] })).status).toBe(201);
    expect((await f.admin.client.post(teamPath('/tokens'), { name: 'admin-admin', scopes: ['admin'] })).status).toBe(201);
  });

  it("should follow its creator's role down when that role is lowered, and be revoked with the membership", async () => {
    const creator = await addPerson(stack.url, f.owner, f.teamId, 'admin', 'demoted');
    const { secret } = await createToken(creator, f.teamId, { scopes: ['read', 'write', 'admin'] });
    const bot = bearer(secret);
    expect((await bot.put(teamPath('/providers/deepseek'), { apiKey: 'sk-admin-token-key-1' })).status).toBe(200);

    expect((await f.owner.client.patch(teamPath(`/members/${creator.userId}`), { role: 'viewer' })).status).toBe(200);
    expect((await bot.put(teamPath('/providers/deepseek'), { apiKey: 'sk-admin-token-key-2' })).status).toBe(403);
    expect((await bot.post(teamPath('/workspaces'), { name: 'after-demotion' })).status).toBe(403);
    expect((await bot.get(teamPath('/workspaces'))).status).toBe(200);

    expect((await f.owner.client.delete(teamPath(`/members/${creator.userId}`))).status).toBe(204);
    const gone = await bot.get(teamPath('/workspaces'));
    expect(gone.status).toBe(401);
  });

  it('should keep a workspace-bound token inside its workspace', async () => {
    const other = await createWorkspace(f.owner, f.teamId, 'not-bound');
    const { secret } = await createToken(f.member, f.teamId, { scopes: ['read', 'write'], workspaceId: f.workspaceId });
    const bot = bearer(secret);

    expect((await bot.get(`/api/v1/workspaces/${f.workspaceId}`)).status).toBe(200);
    expect((await bot.patch(`/api/v1/workspaces/${f.workspaceId}`, { description: 'bound edit' })).status).toBe(200);

    const sibling = await bot.get(`/api/v1/workspaces/${other}`);
    expect(sibling.status).toBe(404);
    expect(errorCode(sibling)).toBe('NOT_FOUND');
    for (const path of [teamPath(), teamPath('/workspaces'), teamPath('/members'), teamPath('/providers/deepseek')]) {
      const res = await bot.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(errorCode(res)).toBe('TOKEN_WORKSPACE_BOUND');
    }
  });

  it("should keep a workspace-bound token away from other workspaces' sessions and runs", async () => {
    const other = await createWorkspace(f.owner, f.teamId, 'other-sessions');
    const foreignSession = (await f.owner.client.post(`/api/v1/workspaces/${other}/sessions`, {})).body.id as string;
    const foreignRun = (await f.owner.client.post(`/api/v1/sessions/${foreignSession}/messages`, { content: 'hi' })).body.id as string;
    const { secret } = await createToken(f.member, f.teamId, { scopes: ['read', 'write'], workspaceId: f.workspaceId });
    const bot = bearer(secret);

    const own = await bot.post(`/api/v1/workspaces/${f.workspaceId}/sessions`, { title: 'bound bot session' });
    expect(own.status).toBe(201);
    const run = await bot.post(`/api/v1/sessions/${own.body.id}/messages`, { content: 'hello' });
    expect(run.status).toBe(202);
    expect((await bot.get(`/api/v1/runs/${run.body.id}`)).status).toBe(200);
    expect((await bot.get(`/api/v1/sessions/${own.body.id}/events`)).status).toBe(200);

    for (const res of [
      await bot.get(`/api/v1/workspaces/${other}/sessions`),
      await bot.get(`/api/v1/sessions/${foreignSession}`),
      await bot.get(`/api/v1/sessions/${foreignSession}/events`),
      await bot.post(`/api/v1/sessions/${foreignSession}/messages`, { content: 'sneaky' }),
      await bot.get(`/api/v1/runs/${foreignRun}`),
      await bot.post(`/api/v1/runs/${foreignRun}/cancel`),
    ]) {
      expect(res.status).toBe(404);
    }
  });

  it("should answer 404 when an admin revokes another team's token through their own team", async () => {
    const { id, secret } = await createToken(f.outsider, f.outsiderTeamId);
    const res = await f.owner.client.delete(teamPath(`/tokens/${id}`));
    expect(res.status).toBe(404);
    expect((await bearer(secret).get(`/api/v1/teams/${f.outsiderTeamId}`)).status).toBe(200);
  });

  it("should answer 403 when a member revokes someone else's token, and let an admin do it", async () => {
    const { id, secret } = await createToken(f.owner, f.teamId, { scopes: ['read'] });
    const byMember = await f.member.client.delete(teamPath(`/tokens/${id}`));
    expect(byMember.status).toBe(403);
    expect((await bearer(secret).get(teamPath())).status).toBe(200);
    expect((await f.admin.client.delete(teamPath(`/tokens/${id}`))).status).toBe(204);
    expect((await bearer(secret).get(teamPath())).status).toBe(401);
  });

  it('should refuse to bind a token to a workspace of another team', async () => {
    const foreignWs = await createWorkspace(f.outsider, f.outsiderTeamId, 'foreign');
    const res = await f.member.client.post(teamPath('/tokens'), { name: 'cross', workspaceId: foreignWs });
    expect(res.status).toBe(404);
  });

  it('should answer 403 TOKEN_NOT_ALLOWED when a token tries to manage tokens or list and create teams', async () => {
    const { id, secret } = await createToken(f.owner, f.teamId, { scopes: ['read', 'write', 'admin'] });
    const bot = bearer(secret);
    const attempts = [
      await bot.get(teamPath('/tokens')),
      await bot.post(teamPath('/tokens'), { name: 'minted-by-token', scopes: ['read'] }),
      await bot.delete(teamPath(`/tokens/${id}`)),
      await bot.get('/api/v1/teams'),
      await bot.post('/api/v1/teams', { name: 'token team' }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect(attempts.map(errorCode)).toEqual(Array(5).fill('TOKEN_NOT_ALLOWED'));
    expect((await bot.get(teamPath())).status).toBe(200);
  });

  it("should answer 404 when a token of another team reaches for this team's resources, even for the same person", async () => {
    const ownersOtherTeam = await createTeam(f.owner, 'tokens second team');
    const { secret } = await createToken(f.owner, ownersOtherTeam, { scopes: ['read', 'write', 'admin'] });
    const { secret: outsiderSecret } = await createToken(f.outsider, f.outsiderTeamId, { scopes: ['read', 'write', 'admin'] });
    for (const bot of [bearer(secret), bearer(outsiderSecret)]) {
      for (const res of [
        await bot.get(teamPath()),
        await bot.get(teamPath('/workspaces')),
        await bot.get(`/api/v1/workspaces/${f.workspaceId}`),
        await bot.post(teamPath('/workspaces'), { name: 'cross-team' }),
      ]) {
        expect(res.status).toBe(404);
        expect(errorCode(res)).toBe('NOT_FOUND');
      }
    }
    // Its own team still works.
    expect((await bearer(secret).get(`/api/v1/teams/${ownersOtherTeam}`)).status).toBe(200);
  });

  it('should never have answered with a 5xx', () => {
    expect(log.responses.filter(({ res }) => res.status >= 500).map(({ path, res }) => `${path} ${res.status}`)).toEqual([]);
  });
});
