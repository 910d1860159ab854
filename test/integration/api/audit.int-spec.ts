import type { AuditEntry } from '@h/db';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient, randomEmail, signedUpClient, TEST_PASSWORD } from '../../support/http-client';
import { addPerson, bearerClient, createToken, errorCode, loggedInClient, Person, sql } from './team-fixture';

// The columns the checks read, as the repository declares them.
type AuditRow = Omit<AuditEntry, 'metadata' | 'createdAt'>;

interface Expected {
  action: string;
  actorUserId: string | null;
  actorTokenId?: string | null;
  teamId: string | null;
  targetType: string;
  targetId: string;
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

describe('audit log', () => {
  let stack: TestStack;
  let owner: Person;
  let teamId: string;
  const expected: Expected[] = [];

  beforeAll(async () => {
    stack = await startStack();
    // One person does every security-relevant thing once; each step notes the entry it must leave.
    const signup = new HttpClient(stack.url);
    const email = randomEmail('audited');
    const created = await signup.post('/api/v1/auth/signup', { email, password: TEST_PASSWORD, name: 'Audited' });
    owner = { client: signup, email, userId: created.body.user.id };
    const me = owner.userId;
    expected.push({ action: 'auth.signup', actorUserId: me, teamId: null, targetType: 'user', targetId: me });

    const failed = await new HttpClient(stack.url).post('/api/v1/auth/login', { email, password: 'wrong-password' });
    expect(failed.status).toBe(401);
    // Nobody known did it: the account is the target, the actor is unknown.
    expected.push({ action: 'auth.login_failed', actorUserId: null, teamId: null, targetType: 'user', targetId: me });

    const second = await loggedInClient(stack.url, email);
    expected.push({ action: 'auth.login', actorUserId: me, teamId: null, targetType: 'user', targetId: me });
    const [session] = await sql<{ id: string }>(
      'SELECT id FROM "AuthSession" WHERE "userId" = $1 AND "revokedAt" IS NULL ORDER BY "createdAt" DESC LIMIT 1',
      [me],
    );
    expect((await second.post('/api/v1/auth/logout')).status).toBe(204);
    expected.push({ action: 'auth.logout', actorUserId: me, teamId: null, targetType: 'auth_session', targetId: session.id });

    const team = await owner.client.post('/api/v1/teams', { name: 'Audited team' });
    teamId = team.body.id;
    expected.push({ action: 'team.create', actorUserId: me, teamId, targetType: 'team', targetId: teamId });

    const t = (p: string) => `/api/v1/teams/${teamId}${p}`;
    const invitation = await owner.client.post(t('/members'), { role: 'member' });
    expect(invitation.status).toBe(201);
    expected.push({ action: 'member.invite', actorUserId: me, teamId, targetType: 'invitation', targetId: invitation.body.invitation.id });
    const newcomer = await signedUpClient(stack.url, 'newcomer');
    expect((await newcomer.client.post('/api/v1/invitations/accept', { token: invitation.body.token })).status).toBe(200);
    // The newcomer joined: they are the actor, not whoever made the link.
    expected.push({ action: 'member.join', actorUserId: newcomer.userId, teamId, targetType: 'user', targetId: newcomer.userId });
    const unused = await owner.client.post(t('/members'), { role: 'viewer' });
    expected.push({ action: 'member.invite', actorUserId: me, teamId, targetType: 'invitation', targetId: unused.body.invitation.id });
    expect((await owner.client.delete(t(`/invitations/${unused.body.invitation.id}`))).status).toBe(204);
    expected.push({ action: 'invitation.revoke', actorUserId: me, teamId, targetType: 'invitation', targetId: unused.body.invitation.id });
    expect((await owner.client.patch(t(`/members/${newcomer.userId}`), { role: 'viewer' })).status).toBe(200);
    expected.push({ action: 'member.role_change', actorUserId: me, teamId, targetType: 'user', targetId: newcomer.userId });
    expect((await owner.client.delete(t(`/members/${newcomer.userId}`))).status).toBe(204);
    expected.push({ action: 'member.remove', actorUserId: me, teamId, targetType: 'user', targetId: newcomer.userId });

    const token = await createToken(owner, teamId, { scopes: ['read', 'write', 'admin'] });
    expected.push({ action: 'token.create', actorUserId: me, teamId, targetType: 'api_token', targetId: token.id });

    expect((await owner.client.put(t('/providers/deepseek'), { apiKey: 'sk-audited-key-0001' })).status).toBe(200);
    expected.push({ action: 'provider.set', actorUserId: me, teamId, targetType: 'provider', targetId: 'deepseek' });
    expect((await owner.client.delete(t('/providers/deepseek'))).status).toBe(204);
    expected.push({ action: 'provider.delete', actorUserId: me, teamId, targetType: 'provider', targetId: 'deepseek' });

    // Workspace changes made by a bot carry the token as well as the person it acts for.
    const bot = bearerClient(stack.url, token.secret);
    const ws = await bot.post(t('/workspaces'), { name: 'audited-ws' });
    expect(ws.status).toBe(201);
    expected.push({ action: 'workspace.create', actorUserId: me, actorTokenId: token.id, teamId, targetType: 'workspace', targetId: ws.body.id });
    expect((await owner.client.patch(`/api/v1/workspaces/${ws.body.id}`, { name: 'renamed' })).status).toBe(200);
    expected.push({ action: 'workspace.update', actorUserId: me, teamId, targetType: 'workspace', targetId: ws.body.id });
    // Agent sessions: who loosened approvals, who approved a command, who stopped a run.
    const wsForSessions = await owner.client.post(t('/workspaces'), { name: 'audited-sessions' });
    expected.push({ action: 'workspace.create', actorUserId: me, teamId, targetType: 'workspace', targetId: wsForSessions.body.id });
    const agent = await owner.client.post(`/api/v1/workspaces/${wsForSessions.body.id}/sessions`, { title: 'audited' });
    expect(agent.status).toBe(201);
    expected.push({ action: 'session.create', actorUserId: me, teamId, targetType: 'session', targetId: agent.body.id });
    expect((await owner.client.patch(`/api/v1/sessions/${agent.body.id}`, { permissionMode: 'bypass' })).status).toBe(200);
    expected.push({ action: 'session.permission_mode', actorUserId: me, teamId, targetType: 'session', targetId: agent.body.id });
    const run = await owner.client.post(`/api/v1/sessions/${agent.body.id}/messages`, { content: 'audit me' });
    expect(run.status).toBe(202);
    const [permission] = await sql<{ id: string }>(
      `INSERT INTO "PermissionRequest" (id, "sessionId", "runId", "toolCallId", "toolName", input)
       VALUES (gen_random_uuid(), $1, $2, 'call-audit', 'run_command', '{}') RETURNING id`,
      [agent.body.id, run.body.id],
    );
    expect((await owner.client.post(`/api/v1/permissions/${permission.id}`, { behavior: 'allow' })).status).toBe(200);
    expected.push({ action: 'permission.allow', actorUserId: me, teamId, targetType: 'permission', targetId: permission.id });
    expect((await owner.client.post(`/api/v1/runs/${run.body.id}/cancel`)).status).toBe(202);
    expected.push({ action: 'run.cancel', actorUserId: me, teamId, targetType: 'run', targetId: run.body.id });

    expect((await owner.client.delete(`/api/v1/workspaces/${ws.body.id}`)).status).toBe(204);
    expected.push({ action: 'workspace.delete', actorUserId: me, teamId, targetType: 'workspace', targetId: ws.body.id });

    expect((await owner.client.delete(t(`/tokens/${token.id}`))).status).toBe(204);
    expected.push({ action: 'token.revoke', actorUserId: me, teamId, targetType: 'api_token', targetId: token.id });
  });

  afterAll(async () => {
    await stack?.close();
  });

  async function rowsFor(e: Expected): Promise<AuditRow[]> {
    return sql<AuditRow>(
      `SELECT id::text, action, "teamId", "actorUserId", "actorTokenId", "targetType", "targetId", ip
         FROM "AuditLog" WHERE action = $1 AND "targetId" = $2 AND "teamId" IS NOT DISTINCT FROM $3`,
      [e.action, e.targetId, e.teamId],
    );
  }

  it.each([
    'auth.signup',
    'auth.login_failed',
    'auth.login',
    'auth.logout',
    'team.create',
    'member.invite',
    'member.join',
    'invitation.revoke',
    'member.role_change',
    'member.remove',
    'token.create',
    'token.revoke',
    'provider.set',
    'provider.delete',
    'workspace.create',
    'workspace.update',
    'workspace.delete',
    'session.create',
    'session.permission_mode',
    'permission.allow',
    'run.cancel',
  ])('should leave exactly one %s entry with its actor, team, target and client ip', async (action) => {
    const e = expected.find((x) => x.action === action);
    if (!e) throw new Error(`the setup did not perform ${action}`);
    const rows = await rowsFor(e);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action,
      actorUserId: e.actorUserId,
      actorTokenId: e.actorTokenId ?? null,
      teamId: e.teamId,
      targetType: e.targetType,
      targetId: e.targetId,
    });
    expect(rows[0].ip).toMatch(LOOPBACK);
  });

  it("should show the team's entries newest first to its owner and admins, paginated", async () => {
    const admin = await addPerson(stack.url, owner, teamId, 'admin', 'auditor');
    const res = await admin.client.get(`/api/v1/teams/${teamId}/audit?limit=200`);
    expect(res.status).toBe(200);
    const actions = res.body.items.map((i: { action: string }) => i.action);
    const teamActions = expected.filter((e) => e.teamId === teamId).map((e) => e.action);
    // The newest entries are the admin joining and the owner's invitation before it; the rest are
    // this file's team actions in reverse.
    expect(actions).toEqual(['member.join', 'member.invite', ...teamActions.reverse()]);
    expect(res.body.items[0]).toMatchObject({ actorUserId: admin.userId, targetId: admin.userId, ip: expect.stringMatching(LOOPBACK) });
    expect(res.body.items[1]).toMatchObject({ actorUserId: owner.userId, targetType: 'invitation' });
    expect(res.text).not.toContain('auth.login');

    const page1 = await owner.client.get(`/api/v1/teams/${teamId}/audit?limit=3`);
    const page2 = await owner.client.get(`/api/v1/teams/${teamId}/audit?limit=3&before=${page1.body.items[2].id}`);
    expect([...page1.body.items, ...page2.body.items].map((i: { id: string }) => i.id)).toEqual(
      res.body.items.slice(0, 6).map((i: { id: string }) => i.id),
    );
  });

  it('should answer 403 to members and viewers and 404 to outsiders asking for the audit log', async () => {
    const member = await addPerson(stack.url, owner, teamId, 'member', 'nosy-member');
    const viewer = await addPerson(stack.url, owner, teamId, 'viewer', 'nosy-viewer');
    const outsider = await signedUpClient(stack.url, 'nosy-outsider');
    const path = `/api/v1/teams/${teamId}/audit`;
    const [m, v, o] = [await member.client.get(path), await viewer.client.get(path), await outsider.client.get(path)];
    expect([m.status, v.status, o.status]).toEqual([403, 403, 404]);
    expect([errorCode(m), errorCode(v), errorCode(o)]).toEqual(['FORBIDDEN', 'FORBIDDEN', 'NOT_FOUND']);
  });
});
