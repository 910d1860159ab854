import { io, type Socket } from 'socket.io-client';
import { startStack, TestStack } from '../../support/api-harness';
import { HttpClient } from '../../support/http-client';
import { newPermission, newRun, newSession } from '../api/route-table';
import { createToken, loggedInClient, TeamFixture, teamWithRoles } from '../api/team-fixture';

type Ack = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } };

// The Socket.IO gateway reaches the same team data as the REST routes (session streams,
// approvals, cancels), so it must refuse the same people, with the same credentials rules.
describe('Socket.IO access control', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startStack();
    f = await teamWithRoles(stack.url, 'socket');
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
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
    expect(run.body.status).toBe('queued');
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
    expect(run.body.status).toBe('queued');
  });
});
