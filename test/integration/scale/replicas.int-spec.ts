// Several api and worker replicas behind one URL, no sticky sessions (issue 15, point 6): the api
// keeps nothing a replica alone knows (sessions and the event log in Postgres, fan-out through the
// Socket.IO Redis adapter and the event bus), so a Socket.IO client on either replica sees every
// event of a run whichever worker executes it, and when its replica stops it reconnects through the
// same URL to the other and resumes after the last seq it had, with nothing missing.
import { readFileSync } from 'node:fs';
import type { Socket } from 'socket.io-client';
import { startScriptedModelServer } from '@h/scripted-model';
import { startStack, type TestStack } from '../../support/api-harness';
import { startApiProcess, type ApiProcess } from '../../support/api-process';
import { freePort } from '../../support/free-port';
import { HttpClient } from '../../support/http-client';
import { createIsolatedDatabase } from '../../support/isolated-database';
import { createRunWorld, waitForRunStatus, allEvents, type RunWorld, type ScriptedServer } from '../../support/run-fixtures';
import { startTcpBalancer, type TcpBalancer } from '../../support/tcp-balancer';
import { waitFor } from '../../support/wait-for';
import { ensureServerBuild, startWorkerProcess, type WorkerProcess } from '../../support/worker-process';
import { connectSocket, emitAck } from '../runs/stream-clients';

/**
 * What a browser does behind a load balancer: a GET whose kept-alive connection went to a replica
 * that has just stopped is reset, and is sent again on a new connection (idempotent requests only).
 */
class BalancedClient extends HttpClient {
  override async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    try {
      return await super.request<T>(method, path, body, headers);
    } catch (err) {
      if (method !== 'GET' || !/fetch failed/.test(String(err))) throw err;
      return super.request<T>(method, path, body, headers);
    }
  }
}

describe('two api and two worker replicas behind one URL', () => {
  let model: ScriptedServer;
  let database: { url: string; drop(): Promise<void> };
  let apiA: TestStack;
  let apiB: ApiProcess;
  let workers: WorkerProcess[] = [];
  let balancer: TcpBalancer;
  let world: RunWorld;
  let client: HttpClient;
  const seen = new Map<string, number[]>();
  let apiAClosed = false;

  beforeAll(async () => {
    ensureServerBuild();
    model = await startScriptedModelServer({ demo: true, scenarios: [] });
    database = await createIsolatedDatabase('replicas');
    // Replica A in this process, replica B and both workers as built processes, one configuration.
    apiA = await startStack({ env: { DATABASE_URL: database.url, DEEPSEEK_BASE_URL: model.url } });
    apiB = await startApiProcess(apiA.config, await freePort());
    workers = [await startWorkerProcess(apiA.config, { WORKER_HEALTH_PORT: String(await freePort()) }), await startWorkerProcess(apiA.config, { WORKER_HEALTH_PORT: String(await freePort()) })];
    const port = (url: string) => Number(new URL(url).port);
    balancer = await startTcpBalancer([
      { name: 'A', port: port(apiA.url) },
      { name: 'B', port: port(apiB.url) },
    ]);
    world = await createRunWorld(apiA, 'replicas');
    // The same person, through the one URL: every request may land on either replica.
    client = new BalancedClient(balancer.url);
    for (const [k, v] of world.client.cookies) client.cookies.set(k, v);
  }, 180_000);

  afterAll(async () => {
    await balancer?.close();
    for (const w of workers) await w.stop();
    await apiB?.stop();
    if (!apiAClosed) await apiA?.close();
    await model?.close();
    await database?.drop();
  });

  /** A socket through the balancer that records each session's seqs; which replica it reached. */
  async function follow(): Promise<{ socket: Socket; replica: string }> {
    const before = balancer.connections.length;
    const socket = await connectSocket(balancer.url, { cookieOf: client });
    socket.on('event', (e: { sessionId: string; seq: number }) => seen.set(e.sessionId, [...(seen.get(e.sessionId) ?? []), e.seq]));
    return { socket, replica: balancer.connections[before] };
  }

  async function subscribe(socket: Socket, sessionId: string): Promise<void> {
    const ack = await emitAck(socket, 'subscribe', { sessionId, afterSeq: seen.get(sessionId)?.at(-1) ?? 0 });
    expect(ack.ok).toBe(true);
  }

  /** The seqs the socket saw for the session are exactly the log's, in order, once it has them all. */
  async function expectComplete(sessionId: string): Promise<void> {
    const log: number[] = (await allEvents(client, sessionId)).map((e: { seq: number }) => e.seq);
    const end = log.at(-1) ?? 0;
    await waitFor(`the socket to see seq ${end} of ${sessionId}`, async () => (seen.get(sessionId)?.at(-1) ?? 0) >= end);
    expect(seen.get(sessionId)).toEqual(log);
  }

  it("should stream runs executed by either worker to a socket on either replica, and resume on the other replica when its own stops", async () => {
    const { socket, replica } = await follow();
    const sessions: string[] = [];
    const runs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'approve' });
      expect(created.status).toBe(201);
      sessions.push(created.body.id);
      await subscribe(socket, created.body.id);
      const posted = await client.post(`/api/v1/sessions/${created.body.id}/messages`, { content: `replicas: run ${i}` });
      expect(posted.status).toBe(202);
      runs.push(posted.body.id);
      expect((await waitForRunStatus(client, posted.body.id, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
      await expectComplete(created.body.id);
    }
    // Each run was executed by one of the two worker processes (its log lines carry the run id).
    const logs = workers.map((w) => readFileSync(w.logFile, 'utf8'));
    for (const id of runs) expect(logs.filter((l) => l.includes(id)).length).toBeGreaterThanOrEqual(1);
    // The HTTP requests went through both replicas (round robin, no stickiness).
    expect(new Set(balancer.connections)).toEqual(new Set(['A', 'B']));

    // A run starts, then the replica the socket is on stops; the client comes back through the
    // same URL (now the other replica) and resumes after the last seq it had.
    const last = sessions[0];
    const posted = await client.post(`/api/v1/sessions/${last}/messages`, { content: 'replicas: once more' });
    expect(posted.status).toBe(202);
    if (replica === 'A') {
      apiAClosed = true;
      await apiA.close();
    }
    else await apiB.stop();
    socket.close();
    const again = await follow();
    expect(again.replica).not.toBe(replica);
    await subscribe(again.socket, last);
    expect((await waitForRunStatus(client, posted.body.id, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    await expectComplete(last);
    again.socket.close();
  }, 180_000);
});
