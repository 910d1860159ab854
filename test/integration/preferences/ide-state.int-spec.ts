import { startStack, TestStack } from '../../support/api-harness';
import { bearerClient, createToken, createWorkspace, errorCode, sql, TeamFixture, teamWithRoles } from '../api/team-fixture';

// The IDE's server-side client state: each user's ide-state per workspace and their editor
// preferences, against the real api and Postgres.
const MAX_BYTES = 2048;

describe('IDE state and preferences', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const statePath = (workspaceId = f.workspaceId) => `/api/v1/workspaces/${workspaceId}/ide-state`;
  const layout = { 'ide-main': { side: 22, center: 48, agent: 30 } };

  beforeAll(async () => {
    stack = await startStack({ env: { IDE_STATE_MAX_BYTES: String(MAX_BYTES) } });
    f = await teamWithRoles(stack.url, 'ide-state');
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should give {} until stored, then exactly what the user stored, to that user only', async () => {
    const before = await f.member.client.get(statePath());
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ state: {}, updatedAt: null });

    const state = { layout, openTabs: ['src/a.ts', 'README.md'], activeTab: 'src/a.ts', expandedDirs: ['src'], sideView: 'explorer', bottomTab: null, terminalTabs: ['t1'] };
    const put = await f.member.client.put(statePath(), { state });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ state, updatedAt: expect.any(String) });
    expect((await f.member.client.get(statePath())).body).toEqual({ state, updatedAt: put.body.updatedAt });

    // Another member of the same team sees their own (empty) state, not this one.
    expect((await f.admin.client.get(statePath())).body).toEqual({ state: {}, updatedAt: null });
    // A PUT replaces the whole document.
    const next = await f.member.client.put(statePath(), { state: { openTabs: [] } });
    expect(next.body.state).toEqual({ openTabs: [] });
  });

  it('should keep a separate state per workspace', async () => {
    const other = await createWorkspace(f.owner, f.teamId, `ide-state-second-${Date.now()}`);
    expect((await f.owner.client.put(statePath(), { state: { openTabs: ['first.ts'] } })).status).toBe(200);
    expect((await f.owner.client.put(statePath(other), { state: { openTabs: ['second.ts'] } })).status).toBe(200);
    expect((await f.owner.client.get(statePath())).body.state).toEqual({ openTabs: ['first.ts'] });
    expect((await f.owner.client.get(statePath(other))).body.state).toEqual({ openTabs: ['second.ts'] });
  });

  it('should let viewers store their own state, and answer 404 to people outside the team', async () => {
    const put = await f.viewer.client.put(statePath(), { state: { sideView: 'explorer' } });
    expect(put.status).toBe(200);
    expect((await f.viewer.client.get(statePath())).body.state).toEqual({ sideView: 'explorer' });

    const read = await f.outsider.client.get(statePath());
    expect(read.status).toBe(404);
    expect(errorCode(read)).toBe('NOT_FOUND');
    const write = await f.outsider.client.put(statePath(), { state: { openTabs: ['x'] } });
    expect(write.status).toBe(404);
    const rows = await sql('SELECT 1 FROM "IdeState" WHERE "userId" = $1', [f.outsider.userId]);
    expect(rows).toEqual([]);
  });

  it('should refuse a state over IDE_STATE_MAX_BYTES with 413 naming the limit, and keep the stored one', async () => {
    expect((await f.member.client.put(statePath(), { state: { openTabs: ['kept.ts'] } })).status).toBe(200);
    const huge = { openTabs: Array.from({ length: 200 }, (_, i) => `src/some/deep/folder/file-${i}.ts`) };
    const res = await f.member.client.put(statePath(), { state: huge });
    expect(res.status).toBe(413);
    expect(errorCode(res)).toBe('IDE_STATE_TOO_LARGE');
    expect(res.body.error.message).toContain(String(MAX_BYTES));
    expect((await f.member.client.get(statePath())).body.state).toEqual({ openTabs: ['kept.ts'] });
  });

  it('should refuse a state that is not a JSON object', async () => {
    for (const state of [['a'], 'text', 42]) {
      const res = await f.member.client.put(statePath(), { state });
      expect(res.status).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    }
    const missing = await f.member.client.put(statePath(), {});
    expect(missing.status).toBe(400);
  });

  it('should store state for the token creator when a read-scoped token writes it', async () => {
    const token = await createToken(f.admin, f.teamId, { scopes: ['read'] });
    const bot = bearerClient(stack.url, token.secret);
    expect((await bot.put(statePath(), { state: { openTabs: ['from-token.ts'] } })).status).toBe(200);
    expect((await f.admin.client.get(statePath())).body.state).toEqual({ openTabs: ['from-token.ts'] });
  });

  it('should merge preference changes over defaults per user and refuse values out of range', async () => {
    const defaults = await f.member.client.get('/api/v1/me/preferences');
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({ preferences: { editorFontSize: 14, tabSize: 2, wordWrap: 'off', theme: 'light' }, updatedAt: null });

    const put = await f.member.client.put('/api/v1/me/preferences', { editorFontSize: 16, theme: 'dark' });
    expect(put.status).toBe(200);
    expect(put.body.preferences).toEqual({ editorFontSize: 16, tabSize: 2, wordWrap: 'off', theme: 'dark' });
    const again = await f.member.client.put('/api/v1/me/preferences', { tabSize: 4 });
    expect(again.body.preferences).toEqual({ editorFontSize: 16, tabSize: 4, wordWrap: 'off', theme: 'dark' });
    expect((await f.member.client.get('/api/v1/me/preferences')).body.preferences).toEqual(again.body.preferences);

    // Someone else's preferences are untouched.
    expect((await f.viewer.client.get('/api/v1/me/preferences')).body.updatedAt).toBeNull();

    for (const bad of [{ editorFontSize: 7 }, { editorFontSize: 41 }, { tabSize: 0 }, { tabSize: 2.5 }, { wordWrap: 'sometimes' }, { theme: 'neon' }, { colour: 'red' }]) {
      const res = await f.member.client.put('/api/v1/me/preferences', bad);
      expect([res.status, errorCode(res)]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await f.member.client.get('/api/v1/me/preferences')).body.preferences).toEqual(again.body.preferences);
  });

  it('should refuse API tokens on preferences (they belong to a person)', async () => {
    const token = await createToken(f.owner, f.teamId, { scopes: ['read', 'write'] });
    const res = await bearerClient(stack.url, token.secret).get('/api/v1/me/preferences');
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('TOKEN_NOT_ALLOWED');
  });
});
