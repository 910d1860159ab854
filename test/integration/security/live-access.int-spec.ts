import { io, type Socket } from 'socket.io-client';
import { startStack, TestStack, waitFor } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { newPermission, newRun, newSession } from '../api/route-table';
import { addPerson, createToken, loggedInClient, TeamFixture, teamWithRoles } from '../api/team-fixture';

type Ack = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } };

const HEARTBEAT_MS = 1000;

// The Socket.IO gateway and the SSE stream reach the same team data as the REST routes (session
// streams, approvals, cancels), so they must refuse the same people with the same credentials
// rules, and a live stream must end when the credentials or the membership behind it end.
describe('live access control (Socket.IO and SSE)', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const sockets: Socket[] = [];
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    stack = await startStack({ env: { SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
    f = await teamWithRoles(stack.url, 'socket');
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const a of aborts) a.abort();
    await stack?.close();
  });

  function open(options: { cookiesOf?: HttpClient; token?: string; origin?: string }): Socket {
    const extraHeaders: Record<string, string> = {};
    if (options.cookiesOf) extraHeaders.cookie = [...options.cookiesOf.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (options.origin) extraHeaders.origin = options.origin;
    const socket = io(stack.url, {
      path: '/api/socket.io',
      transports: ['websocket'],
      extraHeaders,
      auth: options.token ? { token: options.token } : {},
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    return socket;
  }

  /** Resolves with 'ready' or the auth_error code the server sent on connect. */
  function handshake(socket: Socket): Promise<string> {
    return new Promise((resolve, reject) => {
      socket.once('ready', () => resolve('ready'));
      socket.once('auth_error', (e: { error: { code: string } }) => resolve(e.error.code));
      socket.once('connect_error', reject);
    });
  }

  async function connected(options: Parameters<typeof open>[0]): Promise<Socket> {
    const socket = open(options);
    expect(await handshake(socket)).toBe('ready');
    return socket;
  }

  const cookieHeader = (client: HttpClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

  /** Opens an SSE stream and reads it in the background; `ended()` says whether the server closed it. */
  async function openLive(path: string, headers: Record<string, string>): Promise<{ status: number; ended: () => boolean }> {
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(stack.url + path, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
    let done = false;
    const reader = res.body?.getReader();
    void (async () => {
      try {
        while (reader && !(await reader.read()).done) {
          /* frames are not the point here */
        }
      } catch {
        /* aborted by the test */
      }
      done = true;
    })();
    return { status: res.status, ended: () => done };
  }

  /** The server hangs up on a socket whose credentials ended. */
  const disconnected = (socket: Socket) => new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
  const ack = (socket: Socket, event: string, body: unknown): Promise<Ack> => socket.timeout(10000).emitWithAck(event, body);
  const code = (a: Ack) => (a.ok ? 'ok' : a.error.code);

  it('should refuse a handshake without credentials, or with a cookie from a foreign origin', async () => {
    expect(await handshake(open({}))).toBe('UNAUTHENTICATED');
    expect(await handshake(open({ token: 'h_notatoken' }))).toBe('UNAUTHENTICATED');
    expect(await handshake(open({ cookiesOf: f.member.client, origin: 'https://evil.example' }))).toBe('BAD_ORIGIN');
    expect(await handshake(open({ cookiesOf: f.member.client, origin: stack.url }))).toBe('ready');
  });

  it("should answer NOT_FOUND when an outsider subscribes to a team's session or acts on its runs and approvals", async () => {
    const sessionId = await newSession(f);
    const { runId } = await newRun(f);
    const permissionId = await newPermission(f);
    for (const socket of [
      await connected({ cookiesOf: f.outsider.client }),
      await connected({ token: (await createToken(f.outsider, f.outsiderTeamId, { scopes: ['read', 'write', 'admin'] })).secret }),
    ]) {
      expect(code(await ack(socket, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('NOT_FOUND');
      expect(code(await ack(socket, 'run.cancel', { runId }))).toBe('NOT_FOUND');
      expect(code(await ack(socket, 'permission.decide', { permissionId, behavior: 'allow' }))).toBe('NOT_FOUND');
    }
  });

  it('should let a viewer watch but answer FORBIDDEN to its cancels and approvals', async () => {
    const { sessionId, runId } = await newRun(f);
    const permissionId = await newPermission(f);
    const socket = await connected({ cookiesOf: f.viewer.client });
    expect(code(await ack(socket, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('ok');
    expect(code(await ack(socket, 'run.cancel', { runId }))).toBe('FORBIDDEN');
    expect(code(await ack(socket, 'permission.decide', { permissionId, behavior: 'allow' }))).toBe('FORBIDDEN');

    const member = await connected({ cookiesOf: f.member.client });
    expect(code(await ack(member, 'permission.decide', { permissionId, behavior: 'deny' }))).toBe('ok');
  });

  it('should refuse and hang up on a socket whose browser session logged out', async () => {
    const browser = await loggedInClient(stack.url, f.member.email);
    const socket = await connected({ cookiesOf: browser });
    const { sessionId, runId } = await newRun(f);
    expect(code(await ack(socket, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('ok');

    expect((await browser.post('/api/v1/auth/logout')).status).toBe(204);
    const closed = disconnected(socket);
    expect(code(await ack(socket, 'run.cancel', { runId }))).toBe('UNAUTHENTICATED');
    await closed;
    const run = await f.owner.client.get(`/api/v1/runs/${runId}`);
    expect(run.body).toMatchObject({ cancelRequestedAt: null, status: expect.not.stringMatching(/^cancelled$/) });
  });

  it('should hold socket actions to the token scopes: read watches, run cancels and approves, terminals need write', async () => {
    const read = await connected({ token: (await createToken(f.owner, f.teamId, { scopes: ['read'] })).secret });
    const run = await connected({ token: (await createToken(f.owner, f.teamId, { scopes: ['run'] })).secret });
    const { sessionId, runId } = await newRun(f);
    const permissionId = await newPermission(f);
    const decide = { permissionId, behavior: 'deny', message: 'not now' };
    const terminal = { workspaceId: f.workspaceId, cols: 80, rows: 24 };

    expect(code(await ack(read, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('ok');
    const refused = [await ack(read, 'run.cancel', { runId }), await ack(read, 'permission.decide', decide), await ack(run, 'terminal.open', terminal)];
    expect(refused.map(code)).toEqual(['INSUFFICIENT_SCOPE', 'INSUFFICIENT_SCOPE', 'INSUFFICIENT_SCOPE']);
    expect(refused.map((a) => (a.ok ? '' : a.error.message))).toEqual([
      expect.stringContaining('the run scope'),
      expect.stringContaining('the run scope'),
      expect.stringContaining('the write scope'),
    ]);
    expect((await f.owner.client.get(`/api/v1/runs/${runId}`)).body.cancelRequestedAt).toBeNull();

    expect([code(await ack(run, 'run.cancel', { runId })), code(await ack(run, 'permission.decide', decide))]).toEqual(['ok', 'ok']);
  });

  it('should end a live socket subscription once its token is revoked, without a message from the client', async () => {
    const token = await createToken(f.member, f.teamId, { scopes: ['read'] });
    const socket = await connected({ token: token.secret });
    const sessionId = await newSession(f);
    expect(code(await ack(socket, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('ok');
    let hungUp = false;
    socket.once('disconnect', () => (hungUp = true));
    expect((await f.member.client.delete(`/api/v1/teams/${f.teamId}/tokens/${token.id}`)).status).toBe(204);
    await waitFor('the server to hang up on the revoked socket', async () => hungUp, 10 * HEARTBEAT_MS);
  });

  it('should end a live socket subscription once its user leaves the team', async () => {
    const leaver = await addPerson(stack.url, f.owner, f.teamId, 'viewer', 'socket-leaver');
    const socket = await connected({ cookiesOf: leaver.client });
    const sessionId = await newSession(f);
    expect(code(await ack(socket, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('ok');
    const ended = new Promise<{ sessionId: string; error: { code: string } }>((resolve) => socket.once('stream_error', resolve));
    expect((await f.owner.client.delete(`/api/v1/teams/${f.teamId}/members/${leaver.userId}`)).status).toBe(204);
    expect(await ended).toEqual({ sessionId, error: expect.objectContaining({ code: 'NOT_FOUND' }) });
  });

  it('should end an SSE stream once its token is revoked, or its user leaves the team', async () => {
    const token = await createToken(f.member, f.teamId, { scopes: ['read'] });
    const leaver = await addPerson(stack.url, f.owner, f.teamId, 'viewer', 'sse-leaver');
    const sessionId = await newSession(f);
    const path = `/api/v1/sessions/${sessionId}/events/stream`;
    const streams = [await openLive(path, { authorization: `Bearer ${token.secret}` }), await openLive(path, { cookie: cookieHeader(leaver.client) })];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);

    expect((await f.member.client.delete(`/api/v1/teams/${f.teamId}/tokens/${token.id}`)).status).toBe(204);
    expect((await f.owner.client.delete(`/api/v1/teams/${f.teamId}/members/${leaver.userId}`)).status).toBe(204);
    for (const s of streams) await waitFor('the SSE stream to end', async () => s.ended(), 10 * HEARTBEAT_MS);
  });

  it('should refuse and hang up on a socket whose API token was revoked', async () => {
    const token = await createToken(f.member, f.teamId, { scopes: ['read', 'write'] });
    const socket = await connected({ token: token.secret });
    const { sessionId, runId } = await newRun(f);
    expect(code(await ack(socket, 'subscribe', { sessionId, afterSeq: 0 }))).toBe('ok');

    expect((await f.member.client.delete(`/api/v1/teams/${f.teamId}/tokens/${token.id}`)).status).toBe(204);
    const closed = disconnected(socket);
    expect(code(await ack(socket, 'run.cancel', { runId }))).toBe('UNAUTHENTICATED');
    await closed;
    const run = await f.owner.client.get(`/api/v1/runs/${runId}`);
    expect(run.body).toMatchObject({ cancelRequestedAt: null, status: expect.not.stringMatching(/^cancelled$/) });
  });
});
