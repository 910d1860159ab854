import type { Socket } from 'socket.io-client';
import { SessionStreamHub } from '@h/sessions';
import { waitFor } from '../../support/api-harness';
import type { HttpClient } from '../../support/http-client';
import {
  allEvents,
  createRunWorld,
  finishTurn,
  scenario,
  startRun,
  useScriptedRunStack,
  waitForRunStatus,
} from '../../support/run-fixtures';
import { bearerClient, createToken, errorCode } from '../api/team-fixture';
import { connectSocket, emitAck, openSocket, readSse, SseFrame } from './stream-clients';

const FINISHED = ['completed', 'failed', 'cancelled'];
const BUSY_STEPS = 12;

// A run that keeps producing events for a few seconds: each step streams some text, then lists
// files or updates todos, so the log grows by several events per step.
const busyScenario = scenario('streams-busy', 'streams: keep busy', [
  ...Array.from({ length: BUSY_STEPS }, (_, i) => ({
    fault: { type: 'slow' as const, chunkDelayMs: 15 },
    text: `Step ${i + 1}: looking around the workspace before the next small change. `.repeat(2),
    toolCalls:
      i % 2 === 0
        ? [{ name: 'list_files', arguments: { path: '.' } }]
        : [{ name: 'write_todos', arguments: { todos: [{ content: `step ${i + 1}`, status: 'completed' }] } }],
  })),
  finishTurn(
    { lastMessageRole: 'tool' },
    '### Changes Made\n- none: nothing in the workspace changed.\n\n### Verification\n- checked the listed files.\n\n### Outcome\n- the scripted steps ran.\n\n### Todo Progress\n- step 12: completed',
  ),
]);
const twoAnswers = scenario('streams-two-answers', 'streams: first question', [
  { expect: { lastMessageRole: 'user' }, text: 'first answer' },
  { expect: { lastMessageRole: 'user', lastMessageContains: 'second question' }, text: 'second answer' },
]);
const DELTA_TEXT = 'Deltas arrive piece by piece and the persisted message says the same thing in one piece. '.repeat(3);
const deltaScenario = scenario('streams-deltas', 'streams: stream deltas', [
  { expect: { lastMessageRole: 'user' }, fault: { type: 'slow', chunkDelayMs: 10 }, text: DELTA_TEXT },
]);

/** A small deterministic PRNG, so a failing sequence of disconnects can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function dbSeqs(client: HttpClient, sessionId: string): Promise<number[]> {
  return (await allEvents(client, sessionId)).map((e) => e.seq);
}

describe('live streams: Socket.IO and SSE replay then stream, exactly once, across disconnects', () => {
  const ctx = useScriptedRunStack([busyScenario, twoAnswers, deltaScenario], { SSE_HEARTBEAT_MS: '1000' });

  /**
   * Follows the session over Socket.IO until `done()` says the run is over and everything up to
   * the log's last seq arrived, dropping the connection at random points (alternately a client
   * disconnect and a transport close) and resubscribing after the last seq received.
   */
  async function followOverSocket(client: HttpClient, sessionId: string, done: () => Promise<number | null>, random: () => number) {
    const seqs: number[] = [];
    let drops = 0;
    for (;;) {
      const socket: Socket = await connectSocket(ctx.stack.url, { cookieOf: client });
      socket.on('event', (e: { sessionId: string; seq: number }) => {
        if (e.sessionId === sessionId) seqs.push(e.seq);
      });
      const ack = await emitAck(socket, 'subscribe', { sessionId, afterSeq: seqs.at(-1) ?? 0 });
      expect(ack.ok).toBe(true);
      const until = Date.now() + 80 + random() * 400;
      let finished = false;
      while (Date.now() < until) {
        const last = await done();
        if (last !== null && seqs.at(-1) === last) {
          finished = true;
          break;
        }
        await pause(20);
      }
      if (drops % 2 === 0) socket.disconnect();
      else socket.io.engine.close();
      await waitFor('the socket to be closed', async () => !socket.connected);
      socket.removeAllListeners();
      if (finished) return { seqs, drops };
      drops++;
    }
  }

  /** The same over SSE with fetch: each reconnect sends Last-Event-ID = the last id received. */
  async function followOverSse(client: HttpClient, sessionId: string, done: () => Promise<number | null>, random: () => number) {
    const seqs: number[] = [];
    const mismatched: string[] = [];
    let drops = 0;
    for (;;) {
      const abort = new AbortController();
      const lastEventId = seqs.length ? String(seqs.at(-1)) : undefined;
      let opened: () => void = () => undefined;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const reading = readSse(
        ctx.stack.url,
        `/api/v1/sessions/${sessionId}/events/stream`,
        client,
        (f: SseFrame) => {
          if (f.id === undefined || f.event !== undefined) return;
          const envelope = JSON.parse(f.data ?? '{}');
          if (String(envelope.seq) !== f.id) mismatched.push(`id ${f.id} carried seq ${envelope.seq}`);
          seqs.push(Number(f.id));
        },
        { lastEventId, signal: abort.signal, onOpen: () => opened() },
      );
      // The drop comes at a random point of an open stream (under load the headers alone can take
      // longer than the window; a drop before them would test nothing but the abort).
      await Promise.race([open, reading]);
      const until = Date.now() + 80 + random() * 400;
      let finished = false;
      while (Date.now() < until) {
        const last = await done();
        if (last !== null && seqs.at(-1) === last) {
          finished = true;
          break;
        }
        await pause(20);
      }
      abort.abort();
      expect((await reading).status).toBe(200);
      if (finished) return { seqs, drops, mismatched };
      drops++;
    }
  }

  it('should deliver every seq exactly once and in order to Socket.IO and SSE clients that keep dropping', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-drops');
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId = session.body.id;
    let runId = '';
    // Over when the run has ended; then the answer is the log's last seq.
    const done = async () => {
      if (!runId) return null;
      const run = (await world.client.get(`/api/v1/runs/${runId}`)).body;
      if (!FINISHED.includes(run.status)) return null;
      return (await world.client.get(`/api/v1/sessions/${sessionId}/state`)).body.lastSeq as number;
    };
    const openBefore = ctx.stack.api.get(SessionStreamHub).openStreams;
    const socketSide = followOverSocket(world.client, sessionId, done, prng(7));
    const sseSide = followOverSse(world.client, sessionId, done, prng(11));
    runId = (await startRun(world, 'streams: keep busy', { sessionId })).runId;

    const [overSocket, overSse] = await Promise.all([socketSide, sseSide]);
    expect((await world.client.get(`/api/v1/runs/${runId}`)).body.status).toBe('completed');
    const expected = await dbSeqs(world.client, sessionId);
    expect(expected.length).toBeGreaterThan(BUSY_STEPS * 4);
    expect(overSocket.seqs).toEqual(expected);
    expect(overSse.seqs).toEqual(expected);
    expect(overSse.mismatched).toEqual([]);
    // The point of the test: both really were cut off several times while the run went on.
    expect(overSocket.drops).toBeGreaterThanOrEqual(3);
    expect(overSse.drops).toBeGreaterThanOrEqual(3);
    // And the api holds no stream for any of the dropped connections.
    const hub = ctx.stack.api.get(SessionStreamHub);
    await waitFor('every dropped stream to be released', async () => hub.openStreams === openBefore);
  });

  it('should replay only the events after afterSeq, then go on live without a gap', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-after');
    const first = await startRun(world, 'streams: first question', { permissionMode: 'skip' });
    await waitForRunStatus(world.client, first.runId, FINISHED, 30000);
    const before = await dbSeqs(world.client, first.sessionId);
    const middle = before[Math.floor(before.length / 2)];

    const socket = await connectSocket(ctx.stack.url, { cookieOf: world.client });
    try {
      const received: any[] = [];
      socket.on('event', (e) => received.push(e));
      const ack = await emitAck(socket, 'subscribe', { sessionId: first.sessionId, afterSeq: middle });
      expect(ack).toEqual({ ok: true, data: { sessionId: first.sessionId, lastSeq: before.at(-1) } });
      await waitFor('the replay', async () => received.length === before.filter((s) => s > middle).length);
      expect(received.map((e) => e.seq)).toEqual(before.filter((s) => s > middle));

      const second = await startRun(world, 'streams: second question', { sessionId: first.sessionId });
      await waitForRunStatus(world.client, second.runId, FINISHED, 30000);
      const after = await dbSeqs(world.client, first.sessionId);
      await waitFor('the live events', async () => received.at(-1)?.seq === after.at(-1));
      expect(received.map((e) => e.seq)).toEqual(after.filter((s) => s > middle));
      expect(received.filter((e) => e.type === 'message.assistant').map((e) => e.data.content)).toEqual(['second answer']);
      expect(received.every((e) => e.sessionId === first.sessionId && typeof e.ts === 'string' && 'data' in e && 'runId' in e)).toBe(true);
    } finally {
      socket.disconnect();
    }
  });

  it('should accept a subscribe sent the moment the socket connects, before the ready frame', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-eager');
    const { sessionId, runId } = await startRun(world, 'streams: first question', { permissionMode: 'skip' });
    await waitForRunStatus(world.client, runId, FINISHED, 30000);
    const seqs = await dbSeqs(world.client, sessionId);
    // What a browser client naturally writes: subscribe in the connect handler. The handshake's
    // authentication may still be running then; repeated, since that is a race.
    for (let i = 0; i < 20; i++) {
      const socket = openSocket(ctx.stack.url, { cookieOf: world.client });
      try {
        const received: number[] = [];
        socket.on('event', (e: { seq: number }) => received.push(e.seq));
        const ack = await new Promise<any>((resolve) => socket.on('connect', () => resolve(emitAck(socket, 'subscribe', { sessionId, afterSeq: 0 }))));
        expect(ack).toEqual({ ok: true, data: { sessionId, lastSeq: seqs.at(-1) } });
        await waitFor('the replay', async () => received.length === seqs.length);
        expect(received).toEqual(seqs);
      } finally {
        socket.disconnect();
      }
    }
  });

  it('should page the event log with after and limit', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-pages');
    const { sessionId, runId } = await startRun(world, 'streams: first question', { permissionMode: 'skip' });
    await waitForRunStatus(world.client, runId, FINISHED, 30000);
    const all = await allEvents(world.client, sessionId);
    const paged: any[] = [];
    let after = 0;
    for (;;) {
      const page = (await world.client.get(`/api/v1/sessions/${sessionId}/events?after=${after}&limit=2`)).body;
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items);
      expect(page.nextAfter).toBe(page.items.at(-1)?.seq ?? after);
      after = page.nextAfter;
      if (!page.hasMore) break;
    }
    expect(paged).toEqual(all);
    const tail = (await world.client.get(`/api/v1/sessions/${sessionId}/events?after=${all.at(-1).seq}`)).body;
    expect(tail).toEqual({ items: [], nextAfter: all.at(-1).seq, hasMore: false });
    expect((await world.client.get(`/api/v1/sessions/${sessionId}/events?limit=0`)).status).toBe(400);
  });

  it('should send id: = seq over SSE, resume from Last-Event-ID over ?after=, and send heartbeats', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-sse');
    const { sessionId, runId } = await startRun(world, 'streams: first question', { permissionMode: 'skip' });
    await waitForRunStatus(world.client, runId, FINISHED, 30000);
    const seqs = await dbSeqs(world.client, sessionId);
    const middle = seqs[Math.floor(seqs.length / 2)];

    const frames: SseFrame[] = [];
    const abort = new AbortController();
    // Last-Event-ID wins over ?after= (a browser's EventSource resends the URL it was given).
    const reading = readSse(ctx.stack.url, `/api/v1/sessions/${sessionId}/events/stream?after=0`, world.client, (f) => frames.push(f), {
      lastEventId: String(middle),
      signal: abort.signal,
    });
    await waitFor('two heartbeats', async () => frames.filter((f) => f.comment === 'heartbeat').length >= 2, 5000);
    abort.abort();
    expect((await reading).status).toBe(200);

    const events = frames.filter((f) => f.id !== undefined);
    expect(events.map((f) => Number(f.id))).toEqual(seqs.filter((s) => s > middle));
    for (const f of events) expect(JSON.parse(f.data ?? '{}').seq).toBe(Number(f.id));
    const afterOnly: SseFrame[] = [];
    const byQuery = new AbortController();
    const readingByQuery = readSse(ctx.stack.url, `/api/v1/sessions/${sessionId}/events/stream?after=${middle}`, world.client, (f) => afterOnly.push(f), {
      signal: byQuery.signal,
    });
    await waitFor('the replay after ?after=', async () => afterOnly.filter((f) => f.id !== undefined).length === seqs.length - seqs.indexOf(middle) - 1);
    byQuery.abort();
    await readingByQuery;
    expect(afterOnly.filter((f) => f.id !== undefined).map((f) => Number(f.id))).toEqual(seqs.filter((s) => s > middle));

    const bad = await world.client.request('GET', `/api/v1/sessions/${sessionId}/events/stream`, undefined, { 'last-event-id': 'abc' });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('BAD_LAST_EVENT_ID');
  });

  it('should let a bot follow a run over SSE and Socket.IO with an API token', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-bot');
    const token = await createToken({ client: world.client, email: '', userId: world.userId }, world.teamId, { name: 'ci bot' });
    const bot = bearerClient(ctx.stack.url, token.secret);
    const session = await bot.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    expect(session.status).toBe(201);
    const sseIds: number[] = [];
    const abort = new AbortController();
    const reading = readSse(ctx.stack.url, `/api/v1/sessions/${session.body.id}/events/stream`, bot, (f) => f.id !== undefined && sseIds.push(Number(f.id)), {
      signal: abort.signal,
    });
    const socket = await connectSocket(ctx.stack.url, { token: token.secret });
    try {
      const socketSeqs: number[] = [];
      socket.on('event', (e: { seq: number }) => socketSeqs.push(e.seq));
      expect((await emitAck(socket, 'subscribe', { sessionId: session.body.id, afterSeq: 0 })).ok).toBe(true);
      const { runId } = await startRun({ ...world, client: bot }, 'streams: first question', { sessionId: session.body.id });
      expect((await waitForRunStatus(bot, runId, FINISHED, 30000)).status).toBe('completed');
      const seqs = await dbSeqs(bot, session.body.id);
      await waitFor('both streams to catch up', async () => sseIds.at(-1) === seqs.at(-1) && socketSeqs.at(-1) === seqs.at(-1));
      expect(sseIds).toEqual(seqs);
      expect(socketSeqs).toEqual(seqs);
    } finally {
      abort.abort();
      await reading;
      socket.disconnect();
    }
  });

  it('should stream token deltas live that add up to the persisted message', async () => {
    const world = await createRunWorld(ctx.stack, 'streams-deltas');
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const socket = await connectSocket(ctx.stack.url, { cookieOf: world.client });
    try {
      const deltas: any[] = [];
      const events: any[] = [];
      socket.on('delta', (d) => deltas.push(d));
      socket.on('event', (e) => events.push(e));
      expect((await emitAck(socket, 'subscribe', { sessionId: session.body.id, afterSeq: 0 })).ok).toBe(true);
      const { runId } = await startRun(world, 'streams: stream deltas', { sessionId: session.body.id });
      expect((await waitForRunStatus(world.client, runId, FINISHED, 30000)).status).toBe('completed');
      await waitFor('the run.done event', async () => events.some((e) => e.type === 'run.done'));

      const message = events.find((e) => e.type === 'message.assistant');
      expect(message.data.content).toBe(DELTA_TEXT);
      const textDeltas = deltas.filter((d) => d.type === 'text.delta');
      expect(textDeltas.length).toBeGreaterThan(5);
      expect(textDeltas.map((d) => d.data.delta).join('')).toBe(DELTA_TEXT);
      // Each delta says which persisted event it follows: all of them come before the message.
      for (const d of textDeltas) {
        expect(d.runId).toBe(runId);
        expect(d.afterSeq).toBeLessThan(message.seq);
      }
      expect(events.map((e) => e.seq)).toEqual(await dbSeqs(world.client, session.body.id));
    } finally {
      socket.disconnect();
    }
  });
});
