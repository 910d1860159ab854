// Session search over the real event log (Postgres FTS): what the agent's session-query tools and
// the IDE's search route may see (never another workspace or team), what they leave out (the calling
// session, the calling step), the 100-result bound and the cooperative deadline.
import { randomUUID } from 'node:crypto';
import { AgentSessionRepository, EventRepository, SessionSearchRepository } from '@h/db';
import { SessionQueryService, SessionSearchService, toTsquery } from '@h/session-search';
import type { SessionQueryCaller } from '@h/tools';
import { startStack, type TestStack } from '../../support/api-harness';
import { bearerClient, createTeam, createToken, createWorkspace, errorCode, sql, teamWithRoles, type TeamFixture } from '../api/team-fixture';

let stack: TestStack;
let team: TeamFixture;
let sessions: AgentSessionRepository;
let events: EventRepository;
let queries: SessionQueryService;
// Workspaces: A1 and A2 in team A, B1 in team B (the outsider's).
let wsA2: string;
let wsB1: string;
const word = `zq${randomUUID().slice(0, 8)}`;
const signal = new AbortController().signal;

async function newSession(workspaceId: string, teamId: string, createdById: string, title: string, texts: string[] = []): Promise<string> {
  const s = await sessions.create({ teamId, workspaceId, createdById, title, model: 'deepseek-v4-flash', thinking: false, permissionMode: 'approve' });
  if (texts.length) await events.append(s.id, texts.map((content) => ({ type: 'message.user', data: { content } })));
  return s.id;
}

const caller = (workspaceId: string, sessionId: string): SessionQueryCaller => ({ workspaceId, sessionId, runId: randomUUID() });

beforeAll(async () => {
  stack = await startStack();
  team = await teamWithRoles(stack.url, 'search');
  sessions = stack.api.get(AgentSessionRepository);
  events = stack.api.get(EventRepository);
  queries = stack.api.get(SessionQueryService);
  wsA2 = await createWorkspace(team.owner, team.teamId, 'search-a2');
  wsB1 = await createWorkspace(team.outsider, team.outsiderTeamId, 'search-b1');
});

afterAll(async () => {
  await stack?.close();
});

describe('session search', () => {
  let own: string;
  let sibling: string;
  let otherWorkspace: string;
  let otherTeam: string;

  beforeAll(async () => {
    own = await newSession(team.workspaceId, team.teamId, team.owner.userId, 'The calling session', [`I am looking for ${word} here`]);
    sibling = await newSession(team.workspaceId, team.teamId, team.member.userId, 'Invoice rounding', [`The ${word} total was off by a cent; fixed in src/invoice.ts`]);
    otherWorkspace = await newSession(wsA2, team.teamId, team.owner.userId, 'Other workspace', [`${word} in workspace A2`]);
    otherTeam = await newSession(wsB1, team.outsiderTeamId, team.outsider.userId, 'Other team', [`${word} in team B`]);
  });

  it("should find only the caller workspace's other sessions when session_search runs", async () => {
    const text = await queries.searchSessions(caller(team.workspaceId, own), word, signal);
    expect(text).toContain(`session ${sibling} "Invoice rounding"`);
    expect(text).toContain('«');
    expect(text).not.toContain(own);
    expect(text).not.toContain(otherWorkspace);
    expect(text).not.toContain(otherTeam);
    expect(text).toMatch(/^1 session match/);
  });

  it('should say nothing matches rather than show the calling session when it is the only match', async () => {
    const text = await queries.searchSessions(caller(wsA2, otherWorkspace), word, signal);
    expect(text).toBe(`No other session of this workspace matches "${word}".`);
  });

  it('should treat a session of another workspace or team as not found in trace, event trace, read and event search', async () => {
    const me = caller(team.workspaceId, own);
    for (const id of [otherWorkspace, otherTeam, randomUUID(), 'not-a-uuid']) {
      await expect(queries.trace(me, id, signal)).rejects.toThrow(`No session ${id} in this workspace.`);
      await expect(queries.eventTrace(me, id, 1, signal)).rejects.toThrow(`No session ${id} in this workspace.`);
      await expect(queries.readEvent(me, id, 1, signal)).rejects.toThrow(`No session ${id} in this workspace.`);
      await expect(queries.searchEvents({ ...me, callId: null }, { query: word, sessionId: id }, signal)).rejects.toThrow(`No session ${id} in this workspace.`);
    }
    expect(await queries.readEvent(me, sibling, 1, signal)).toContain('off by a cent');
  });

  it('should leave out the calling step (its assistant message and what follows) when session_event_search searches the calling session', async () => {
    const s = await newSession(team.workspaceId, team.teamId, team.owner.userId, 'Event search', [`earlier note about ${word}`]);
    const args = JSON.stringify({ query: word });
    await events.append(s, [
      { type: 'message.assistant', data: { content: `Searching for ${word}`, toolCalls: [{ id: 'call_now', name: 'session_event_search', arguments: args }] } },
      { type: 'tool.start', data: { toolCallId: 'call_now', name: 'session_event_search', arguments: args, category: 'read' } },
    ]);
    const mine = await queries.searchEvents({ ...caller(team.workspaceId, s), callId: 'call_now' }, { query: word, sessionId: null }, signal);
    expect(mine).toMatch(/^1 event of this session match/);
    expect(mine).toContain('- seq 1 message.user');
    // Another session searching this one sees the whole log.
    const theirs = await queries.searchEvents({ ...caller(team.workspaceId, own), callId: 'call_x' }, { query: word, sessionId: s }, signal);
    expect(theirs).toMatch(/^3 events of session/);
  });

  it('should relate a tool call to its result and a permission request to its decision', async () => {
    const s = await newSession(team.workspaceId, team.teamId, team.owner.userId, 'Relations', [`run the ${word} tests`]);
    await events.append(s, [
      { type: 'message.assistant', data: { content: null, toolCalls: [{ id: 'call_1', name: 'run_command', arguments: '{"command":"npm test"}' }] } },
      { type: 'permission.requested', data: { permissionId: 'perm_1', toolCallId: 'call_1', toolName: 'run_command', input: { command: 'npm test' } } },
      { type: 'permission.resolved', data: { permissionId: 'perm_1', toolCallId: 'call_1', toolName: 'run_command', behavior: 'allow', updatedInput: null, message: null, decidedBy: team.owner.userId } },
      { type: 'tool.start', data: { toolCallId: 'call_1', name: 'run_command', arguments: '{"command":"npm test"}', category: 'command' } },
      { type: 'tool.end', data: { toolCallId: 'call_1', name: 'run_command', result: '3 passed', isError: false, durationMs: 5 } },
    ]);
    const text = await queries.eventTrace(caller(team.workspaceId, own), s, 6, signal);
    expect(text).toContain('Event seq 6 tool.end');
    for (const seq of [2, 3, 4, 5]) expect(text).toContain(`- seq ${seq} `);
    expect(text).not.toContain('- seq 1 ');
    const trace = await queries.trace(caller(team.workspaceId, own), s, signal);
    expect(trace).toContain(`Session ${s} "Relations"`);
  });

  it("should show a session's fork source and forks in its trace, within the workspace", async () => {
    const source = await newSession(team.workspaceId, team.teamId, team.owner.userId, 'Source', [`${word} source`]);
    const fork = (await sessions.create({ teamId: team.teamId, workspaceId: team.workspaceId, createdById: team.owner.userId, title: 'Source (fork)', model: 'deepseek-v4-flash', thinking: false, permissionMode: 'approve', forkedFromId: source })).id;
    expect(await queries.trace(caller(team.workspaceId, own), fork, signal)).toContain(`Forked from: session ${source} "Source"`);
    const text = await queries.trace(caller(team.workspaceId, own), source, signal);
    expect(text).toContain('Forks:');
    expect(text).toContain(`- session ${fork} "Source (fork)"`);
  });

  it('should collect at most 100 sessions and 100 events', async () => {
    const ws = await createWorkspace(team.owner, team.teamId, 'search-many');
    const many = `zm${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 105; i++) await newSession(ws, team.teamId, team.owner.userId, `Many ${i}`, [`${many} number ${i}`]);
    const text = await queries.searchSessions(caller(ws, randomUUID()), many, signal);
    expect(text).toMatch(/^100 sessions match/);
    expect(text.match(/^\d+\. session /gm)).toHaveLength(100);
    const big = await newSession(ws, team.teamId, team.owner.userId, 'Big', Array.from({ length: 130 }, (_, i) => `${many} line ${i}`));
    const inOne = await queries.searchEvents({ ...caller(ws, randomUUID()), callId: null }, { query: many, sessionId: big }, signal);
    expect(inOne).toMatch(/^100 events of session/);
    expect(inOne.match(/^- seq \d+ /gm)).toHaveLength(100);
  });

  it('should stop at the deadline between pages and say the results are partial', async () => {
    const ws = await createWorkspace(team.owner, team.teamId, 'search-deadline');
    const slow = `zd${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 9; i++) await newSession(ws, team.teamId, team.owner.userId, `Slow ${i}`, [`${slow} ${i}`]);
    // Each page "takes" 600 ms of a 1,000 ms deadline on the injected clock: two pages run, the third never starts.
    let now = 0;
    const real = stack.api.get(SessionSearchRepository);
    const repo = Object.create(real) as SessionSearchRepository;
    let pages = 0;
    repo.searchSessionEvents = async (q) => {
      pages++;
      const page = await real.searchSessionEvents(q);
      now += 600;
      return page;
    };
    const search = new SessionSearchService(repo, { deadlineMs: 1_000, pageSize: 2, clock: () => now });
    const found = await search.searchSessions({ workspaceIds: [ws], excludeSession: null, tsquery: toTsquery(slow) as string });
    expect(pages).toBe(2);
    expect(found.partial).toBe(true);
    expect(found.hits).toHaveLength(4);
    const text = await new SessionQueryService(search, real).searchSessions(caller(ws, randomUUID()), slow, signal);
    expect(text).toContain('The search deadline passed');
  });

  it('should serve the IDE search box to viewers and read tokens of the workspace, and 404 to outsiders', async () => {
    const path = `/api/v1/workspaces/${team.workspaceId}/sessions/search?q=${encodeURIComponent(word)}`;
    const viewer = await team.viewer.client.get(path);
    expect(viewer.status).toBe(200);
    expect(viewer.body.partial).toBe(false);
    const ids = viewer.body.items.map((i: { sessionId: string }) => i.sessionId);
    expect(ids).toEqual(expect.arrayContaining([own, sibling]));
    expect(ids).not.toContain(otherWorkspace);
    expect(ids).not.toContain(otherTeam);
    expect(viewer.body.items.find((i: { sessionId: string }) => i.sessionId === sibling)).toMatchObject({ title: 'Invoice rounding', workspaceId: team.workspaceId, seq: 1, type: 'message.user' });
    const outsider = await team.outsider.client.get(path);
    expect(outsider.status).toBe(404);
    // The outsider's own workspace search never shows team A's sessions.
    const theirs = await team.outsider.client.get(`/api/v1/workspaces/${wsB1}/sessions/search?q=${encodeURIComponent(word)}`);
    expect(theirs.body.items.map((i: { sessionId: string }) => i.sessionId)).toEqual([otherTeam]);
    // A read token is enough; one bound to another workspace or made in another team finds nothing.
    const token = await createToken(team.member, team.teamId, { scopes: ['read'] });
    expect((await bearerClient(stack.url, token.secret).get(path)).status).toBe(200);
    const bound = await createToken(team.member, team.teamId, { scopes: ['read'], workspaceId: wsA2 });
    expect((await bearerClient(stack.url, bound.secret).get(path)).status).toBe(404);
    const otherTeamId = await createTeam(team.member, 'member own team');
    const foreign = await createToken(team.member, otherTeamId, { scopes: ['read'] });
    expect((await bearerClient(stack.url, foreign.secret).get(path)).status).toBe(404);
  });

  it("should search all the team's workspaces for its readers, and none of another team's", async () => {
    const path = `/api/v1/teams/${team.teamId}/sessions/search?q=${encodeURIComponent(word)}`;
    const viewer = await team.viewer.client.get(path);
    expect(viewer.status).toBe(200);
    const byId = new Map(viewer.body.items.map((i: { sessionId: string; workspaceId: string }) => [i.sessionId, i.workspaceId]));
    expect(byId.get(own)).toBe(team.workspaceId);
    expect(byId.get(sibling)).toBe(team.workspaceId);
    expect(byId.get(otherWorkspace)).toBe(wsA2);
    expect(byId.has(otherTeam)).toBe(false);
    expect((await team.outsider.client.get(path)).status).toBe(404);
    const theirs = await team.outsider.client.get(`/api/v1/teams/${team.outsiderTeamId}/sessions/search?q=${encodeURIComponent(word)}`);
    expect(theirs.body.items.map((i: { sessionId: string }) => i.sessionId)).toEqual([otherTeam]);
  });

  it('should keep each event in its session\'s workspace whatever inserted it', async () => {
    // The appends set Event.workspaceId; any other insert gets it from the session (the trigger).
    const id = await newSession(wsA2, team.teamId, team.owner.userId, 'Raw insert', []);
    await sql(`INSERT INTO "Event" ("sessionId", seq, type, data) VALUES ($1, 1, 'message.user', $2)`, [id, JSON.stringify({ content: `${word} raw` })]);
    const rows = await sql<{ workspaceId: string }>(`SELECT DISTINCT "workspaceId" FROM "Event" WHERE "sessionId" = ANY($1::uuid[])`, [[id]]);
    expect(rows.map((r) => r.workspaceId)).toEqual([wsA2]);
    const appended = await sql<{ workspaceId: string }>(`SELECT DISTINCT "workspaceId" FROM "Event" WHERE "sessionId" = $1`, [sibling]);
    expect(appended.map((r) => r.workspaceId)).toEqual([team.workspaceId]);
  });

  it('should refuse a missing, empty or too long q with 400', async () => {
    const base = `/api/v1/workspaces/${team.workspaceId}/sessions/search`;
    for (const q of ['', '?q=', `?q=${'a'.repeat(201)}`]) {
      const res = await team.viewer.client.get(`${base}${q}`);
      expect(res.status).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    }
    const nothing = await team.viewer.client.get(`${base}?q=${encodeURIComponent('!!')}`);
    expect(nothing.body).toEqual({ items: [], partial: false });
  });
});
