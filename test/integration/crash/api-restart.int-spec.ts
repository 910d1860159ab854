import type { NestExpressApplication } from '@nestjs/platform-express';
import { io, type Socket } from 'socket.io-client';
import { removeSandboxes, waitFor } from '../../support/api-harness';
import { allEvents, waitForRunStatus } from '../../support/run-fixtures';
import { startApiOnPort } from '../../support/worker-process';
import { CrashWorld, logProblems, runTurns, startCrashWorld, waitForStreamingTurn } from './crash-kit';

// An api restart in the middle of a run costs a Socket.IO client nothing but a reconnect: the
// worker (a separate process) goes on appending while the api is down, and the client, on its
// reconnect, subscribes again from the last seq it holds and receives exactly what it missed.

describe('api restart while a Socket.IO client watches a run', () => {
  let crash: CrashWorld;
  let api: NestExpressApplication;
  let socket: Socket | undefined;

  beforeAll(async () => {
    crash = await startCrashWorld('api-restart', runTurns(1));
    api = crash.stack.api;
  }, 600_000);

  // The stack's own close() would close the first api again: close the current one here.
  afterAll(async () => {
    socket?.close();
    await crash?.worker.stop();
    await api?.close();
    if (crash) await removeSandboxes(crash.stack.sandboxPrefix);
    await crash?.model.close();
    await crash?.dropDatabase();
  });

  it('should let the client resubscribe from its last seq and end with exactly the logged seqs', async () => {
    const { model, stack, world } = crash;
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = session.body.id;
    const port = Number(new URL(stack.url).port);

    const received: number[] = [];
    const subscribedFrom: number[] = [];
    const refused: unknown[] = [];
    const client = io(stack.url, {
      path: '/api/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: [...world.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      reconnection: true,
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
      forceNew: true,
    });
    socket = client;
    // `ready` comes on every (re)connection: subscribe again from the last seq this client holds.
    client.on('ready', () => {
      const afterSeq = received.at(-1) ?? 0;
      subscribedFrom.push(afterSeq);
      client.emit('subscribe', { sessionId, afterSeq }, (ack: { ok: boolean }) => {
        if (!ack.ok) refused.push(ack);
      });
    });
    client.on('event', (e: { seq: number }) => received.push(e.seq));
    await waitFor('the socket to subscribe', async () => subscribedFrom.length === 1);

    const first = 'Run 1: write note 1 and log it.';
    const posted = await world.client.post(`/api/v1/sessions/${sessionId}/messages`, { content: first });
    expect(posted.status).toBe(202);
    await waitForStreamingTurn(model, first, 1);
    const beforeRestart = received.length;
    expect(beforeRestart).toBeGreaterThan(0);

    await api.close();
    // The worker keeps going while the api is down: the second answer and its tool land in the log.
    await waitForStreamingTurn(model, first, 2);
    api = await startApiOnPort(stack.config, port);

    const run = await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled']);
    expect(run.status).toBe('completed');
    const logged = await allEvents(world.client, sessionId);
    expect(logProblems(logged)).toEqual([]);
    await waitFor('the client to catch up', async () => received.at(-1) === logged.at(-1).seq);
    expect(received).toEqual(logged.map((e) => e.seq));
    // Two subscriptions: from 0, then from the last seq held when the api went away.
    expect(subscribedFrom).toHaveLength(2);
    expect(subscribedFrom[1]).toBeGreaterThanOrEqual(received[beforeRestart - 1]);
    expect(refused).toEqual([]);
    expect(model.failures).toEqual([]);
  }, 300_000);
});
