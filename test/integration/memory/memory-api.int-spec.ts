import { startStack, TestStack } from '../../support/api-harness';
import { createWorkspace, sql, TeamFixture, teamWithRoles } from '../api/team-fixture';

// Issue 14, point 1: the Memory settings page's routes. User memory is its owner's alone (across
// the team's workspaces); project memory is the workspace's (viewers read, members edit); another
// team sees nothing. Every overwrite and forget stays in the history.
describe('memory REST routes', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const api = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/memories`;

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'memory');
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should merge spelling variants of a key into one entry and keep every old value in its history', async () => {
    const first = await f.member.client.post(api(f.workspaceId), { scope: 'project', key: 'Indent Style', content: 'Two spaces', category: 'convention' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ scope: 'project', key: 'Indent Style', content: 'Two spaces', category: 'convention', workspaceId: f.workspaceId, userId: null });
    expect(first.body).not.toHaveProperty('normKey');
    const again = await f.owner.client.post(api(f.workspaceId), { scope: 'project', key: 'indent_style', content: 'Four spaces', tags: ['Style'] });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: first.body.id, content: 'Four spaces', category: 'convention', tags: ['style'] });
    const edited = await f.member.client.patch(`${api(f.workspaceId)}/${first.body.id}`, { content: 'Tabs' });
    expect(edited.body.content).toBe('Tabs');

    const listed = await f.viewer.client.get(`${api(f.workspaceId)}?scope=project&q=indent`);
    expect(listed.body.items.filter((m: { key: string }) => /indent/i.test(m.key))).toHaveLength(1);
    expect((await f.viewer.client.delete(`${api(f.workspaceId)}/${first.body.id}`)).status).toBe(403);
    expect((await f.member.client.delete(`${api(f.workspaceId)}/${first.body.id}`)).status).toBe(204);
    expect((await f.viewer.client.get(`${api(f.workspaceId)}/${first.body.id}`)).status).toBe(404);

    const history = await f.viewer.client.get(`${api(f.workspaceId)}/${first.body.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.items.map((r: { change: string; content: string }) => [r.change, r.content])).toEqual([
      ['create', 'Two spaces'],
      ['update', 'Four spaces'],
      ['update', 'Tabs'],
      ['forget', 'Tabs'],
    ]);
    // Forgotten, the key can be remembered anew (the unique index covers live entries only).
    expect((await f.member.client.post(api(f.workspaceId), { scope: 'project', key: 'indent-style', content: 'Two spaces' })).status).toBe(201);
  });

  it("should show a user's own user memory in every workspace of the team and to nobody else", async () => {
    const other = await createWorkspace(f.owner, f.teamId, 'memory-ws-2');
    const mine = await f.member.client.post(api(f.workspaceId), { scope: 'user', key: 'timezone', content: 'Europe/Berlin' });
    expect(mine.body).toMatchObject({ scope: 'user', userId: expect.any(String), workspaceId: null });
    const project = await f.member.client.post(api(f.workspaceId), { scope: 'project', key: 'server-port', content: '3000' });

    const inOther = await f.member.client.get(api(other));
    expect(inOther.body.items.map((m: { key: string }) => m.key)).toContain('timezone');
    expect(inOther.body.items.map((m: { key: string }) => m.key)).not.toContain('server-port');

    // Another member (even the owner) never sees, edits or forgets it.
    for (const person of [f.owner, f.admin, f.viewer]) {
      const listed = await person.client.get(api(f.workspaceId));
      expect(listed.body.items.map((m: { id: string }) => m.id)).not.toContain(mine.body.id);
      expect(listed.body.items.map((m: { id: string }) => m.id)).toContain(project.body.id);
      expect((await person.client.get(`${api(f.workspaceId)}/${mine.body.id}`)).status).toBe(404);
      expect((await person.client.get(`${api(f.workspaceId)}/${mine.body.id}/history`)).status).toBe(404);
    }
    expect((await f.owner.client.patch(`${api(f.workspaceId)}/${mine.body.id}`, { content: 'UTC' })).status).toBe(404);
    expect((await f.owner.client.delete(`${api(f.workspaceId)}/${mine.body.id}`)).status).toBe(404);
    // The same key in another user's user memory is their own entry.
    const theirs = await f.admin.client.post(api(f.workspaceId), { scope: 'user', key: 'Timezone', content: 'Asia/Tokyo' });
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect((await f.member.client.get(`${api(f.workspaceId)}/${mine.body.id}`)).body.content).toBe('Europe/Berlin');
  });

  it('should answer 404 to another team and refuse bad values with 400', async () => {
    const project = await f.member.client.post(api(f.workspaceId), { scope: 'project', key: 'deploy-target', content: 'fly.io' });
    expect((await f.outsider.client.get(api(f.workspaceId))).status).toBe(404);
    expect((await f.outsider.client.get(`${api(f.workspaceId)}/${project.body.id}`)).status).toBe(404);
    expect((await f.outsider.client.post(api(f.workspaceId), { scope: 'project', key: 'x', content: 'y' })).status).toBe(404);
    const bad = await f.member.client.post(api(f.workspaceId), { scope: 'team', key: 'x', content: 'y' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const noLetters = await f.member.client.post(api(f.workspaceId), { scope: 'project', key: '---', content: 'y' });
    expect([noLetters.status, noLetters.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const rows = await sql<{ n: string }>(`SELECT count(*) AS n FROM "Memory" WHERE "workspaceId" = $1 AND "deletedAt" IS NULL AND "normKey" = 'deploy-target'`, [f.workspaceId]);
    expect(Number(rows[0].n)).toBe(1);
  });
});
