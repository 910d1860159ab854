import type { Socket } from 'socket.io-client';
import { waitFor } from '../../support/api-harness';
import { HttpClient, signedUpClient } from '../../support/http-client';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  RunWorld,
  scenario,
  startRun,
  useScriptedRunStack,
  waitForPendingPermission,
  waitForRunStatus,
} from '../../support/run-fixtures';
import { createToken, errorCode } from '../api/team-fixture';
import { connectSocket, emitAck, openSocket, readSse } from './stream-clients';

const askingScenario = scenario('isolation-asking', 'isolation: ask before running', [
  { expect: { lastMessageRole: 'user' }, text: 'Checking first.', toolCalls: [{ name: 'run_command', arguments: { command: 'echo isolated > mine.txt' } }] },
  finishTurn({ lastMessageRole: 'tool' }),
]);

interface WaitingRun {
  world: RunWorld;
  sessionId: string;
  runId: string;
  permissionId: string;
}

describe("another team's user sees and touches nothing of this team's runs", () => {
  const ctx = useScriptedRunStack([askingScenario]);

  async function waitingRun(tag: string): Promise<WaitingRun> {
    const world = await createRunWorld(ctx.stack, tag);
    const { sessionId, runId } = await startRun(world, 'isolation: ask before running', { permissionMode: 'approve' });
    const request = await waitForPendingPermission(world.client, sessionId, runId);
    return { world, sessionId, runId, permissionId: request.id };
  }

  /** A signed-up user who owns a team of their own (so is a member of something, just not of this). */
  async function outsider(tag: string): Promise<{ client: HttpClient; teamId: string }> {
    const { client } = await signedUpClient(ctx.stack.url, tag);
    const team = await client.post('/api/v1/teams', { name: `${tag} team` });
    return { client, teamId: team.body.id };
  }

  function expectNotFound(res: { status: number; body: any; text: string }, what: string): void {
    expect({ what, status: res.status }).toEqual({ what, status: 404 });
    expect(errorCode(res as any)).toBe('NOT_FOUND');
  }

  it('should answer 404 to every read of the session, its events, SSE stream, runs and permissions', async () => {
    const w = await waitingRun('iso-read');
    const other = await outsider('iso-read-out');
    const reads = [
      `/api/v1/workspaces/${w.world.workspaceId}/sessions`,
      `/api/v1/sessions/${w.sessionId}`,
      `/api/v1/sessions/${w.sessionId}/state`,
      `/api/v1/sessions/${w.sessionId}/events`,
      `/api/v1/sessions/${w.sessionId}/events?after=1&limit=5`,
      `/api/v1/sessions/${w.sessionId}/runs`,
      `/api/v1/sessions/${w.sessionId}/permissions`,
      `/api/v1/sessions/${w.sessionId}/permissions?status=pending`,
      `/api/v1/runs/${w.runId}`,
      `/api/v1/teams/${w.world.teamId}/usage`,
    ];
    for (const path of reads) expectNotFound(await other.client.get(path), path);

    const frames: unknown[] = [];
    const sse = await readSse(ctx.stack.url, `/api/v1/sessions/${w.sessionId}/events/stream`, other.client, (f) => frames.push(f));
    expect(sse.status).toBe(404);
    expect(JSON.parse(sse.body ?? '{}').error.code).toBe('NOT_FOUND');
    expect(frames).toEqual([]);
    // The owner still reads all of it.
    expect((await w.world.client.get(`/api/v1/sessions/${w.sessionId}/events`)).body.items.length).toBeGreaterThan(0);
  });

  it('should answer 404 to cancelling, approving, posting to or renaming anything, and change nothing', async () => {
    const w = await waitingRun('iso-write');
    const other = await outsider('iso-write-out');
    const before = (await allEvents(w.world.client, w.sessionId)).length;

    expectNotFound(await other.client.post(`/api/v1/runs/${w.runId}/cancel`), 'cancel');
    expectNotFound(await other.client.post(`/api/v1/permissions/${w.permissionId}`, { behavior: 'allow' }), 'allow');
    expectNotFound(await other.client.post(`/api/v1/permissions/${w.permissionId}`, { behavior: 'deny', message: 'no' }), 'deny');
    expectNotFound(await other.client.post(`/api/v1/sessions/${w.sessionId}/messages`, { content: 'hello from outside' }), 'message');
    expectNotFound(await other.client.patch(`/api/v1/sessions/${w.sessionId}`, { permissionMode: 'bypass' }), 'patch');
    expectNotFound(await other.client.post(`/api/v1/workspaces/${w.world.workspaceId}/sessions`, {}), 'create session');

    expect((await w.world.client.get(`/api/v1/runs/${w.runId}`)).body.status).toBe('waiting_permission');
    const perms = (await w.world.client.get(`/api/v1/sessions/${w.sessionId}/permissions`)).body.items;
    expect(perms.map((p: any) => p.status)).toEqual(['pending']);
    expect((await w.world.client.get(`/api/v1/sessions/${w.sessionId}`)).body.permissionMode).toBe('approve');
    expect(await allEvents(w.world.client, w.sessionId)).toHaveLength(before);
  });

  it('should refuse a foreign Socket.IO subscribe, decide and cancel, and send that socket no event', async () => {
    const w = await waitingRun('iso-sock');
    const other = await outsider('iso-sock-out');
    const token = await createToken({ client: other.client, email: '', userId: '' }, other.teamId, { name: 'outsider bot' });
    const sockets: Socket[] = [];
    try {
      const owner = await connectSocket(ctx.stack.url, { cookieOf: w.world.client });
      const byCookie = await connectSocket(ctx.stack.url, { cookieOf: other.client });
      const byToken = await connectSocket(ctx.stack.url, { token: token.secret });
      sockets.push(owner, byCookie, byToken);
      const leaked: unknown[] = [];
      for (const s of [byCookie, byToken]) {
        s.on('event', (e) => leaked.push(e));
        s.on('delta', (d) => leaked.push(d));
        const sub = await emitAck(s, 'subscribe', { sessionId: w.sessionId, afterSeq: 0 });
        expect(sub).toEqual({ ok: false, error: expect.objectContaining({ code: 'NOT_FOUND' }) });
        const decide = await emitAck(s, 'permission.decide', { permissionId: w.permissionId, behavior: 'allow' });
        expect(decide).toEqual({ ok: false, error: expect.objectContaining({ code: 'NOT_FOUND' }) });
        const cancel = await emitAck(s, 'run.cancel', { runId: w.runId });
        expect(cancel).toEqual({ ok: false, error: expect.objectContaining({ code: 'NOT_FOUND' }) });
      }
      expect((await w.world.client.get(`/api/v1/runs/${w.runId}`)).body.status).toBe('waiting_permission');

      // The owner's socket sees the rest of the run live; the outsiders' sockets see none of it.
      const ownerSeqs: number[] = [];
      owner.on('event', (e: { seq: number }) => ownerSeqs.push(e.seq));
      expect((await emitAck(owner, 'subscribe', { sessionId: w.sessionId, afterSeq: 0 })).ok).toBe(true);
      expect((await emitAck(owner, 'permission.decide', { permissionId: w.permissionId, behavior: 'allow' })).ok).toBe(true);
      expect((await waitForRunStatus(w.world.client, w.runId, ['completed', 'failed', 'cancelled'], 30000)).status).toBe('completed');
      const lastSeq = (await w.world.client.get(`/api/v1/sessions/${w.sessionId}/state`)).body.lastSeq;
      await waitFor('the owner to receive every event', async () => ownerSeqs.at(-1) === lastSeq);
      expect(leaked).toEqual([]);
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });

  it('should refuse a cookie handshake from a foreign Origin, but not from H itself or with a token', async () => {
    const w = await waitingRun('iso-origin');
    const token = await createToken({ client: w.world.client, email: '', userId: w.world.userId }, w.world.teamId, { name: 'ci bot' });

    const foreign = openSocket(ctx.stack.url, { cookieOf: w.world.client, origin: 'https://evil.example' });
    const received: unknown[] = [];
    foreign.on('event', (e) => received.push(e));
    const refusal = await new Promise<any>((resolve) => {
      foreign.once('auth_error', (e) => resolve(e));
      foreign.once('ready', () => resolve({ ready: true }));
    });
    expect(refusal).toEqual({ error: expect.objectContaining({ code: 'BAD_ORIGIN' }) });
    await waitFor('the refused socket to be disconnected', async () => !foreign.connected);
    foreign.close();
    expect(received).toEqual([]);

    // The same cookie from H's own origin, and a bot token from anywhere, are let in.
    const sameOrigin = await connectSocket(ctx.stack.url, { cookieOf: w.world.client, origin: ctx.stack.url });
    const bot = await connectSocket(ctx.stack.url, { token: token.secret, origin: 'https://ci.example' });
    try {
      for (const s of [sameOrigin, bot]) expect((await emitAck(s, 'subscribe', { sessionId: w.sessionId, afterSeq: 0 })).ok).toBe(true);
    } finally {
      sameOrigin.disconnect();
      bot.disconnect();
    }
  });
});
