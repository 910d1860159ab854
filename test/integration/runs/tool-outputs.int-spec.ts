import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ToolOutputRepository } from '@h/db';
import type { Socket } from 'socket.io-client';
import { waitFor } from '../../support/api-harness';
import { allEvents, createRunWorld, finishTurn, scenario, startRun, useScriptedRunStack, waitForRunStatus } from '../../support/run-fixtures';
import { errorCode } from '../api/team-fixture';
import { connectSocket, emitAck, readSse } from './stream-clients';

// Full tool outputs are stored once per session (ToolOutput) and read on demand; the event log
// and every stream frame carry only the preview the model saw and the locator.

const HIDDEN = `MIDDLE-MARKER-${randomUUID()}`;
const READ = `READ-MARKER-${randomUUID()}`;
const LINES = 40_000;
// ~2 MB: line 20000 is the hidden marker nobody asks for (written reversed in the command, which
// the log does keep), line 20001 the one the model reads.
const COMMAND = `python3 -c "for i in range(1, ${LINES + 1}): print('${[...HIDDEN].reverse().join('')}'[::-1] if i == 20000 else '${READ}' if i == 20001 else 'line %05d %s' % (i, 'x' * 40))"`;
const EXPECTED = Array.from({ length: LINES }, (_, k) => {
  const i = k + 1;
  return i === 20000 ? HIDDEN : i === 20001 ? READ : `line ${String(i).padStart(5, '0')} ${'x'.repeat(40)}`;
}).join('\n') + '\n';
/** Far above any preview (distilled key lines, spill head/tail), far below the output. */
const FRAME_LIMIT = 64 * 1024;

const bigOutput = scenario('tool-outputs-big', 'tool outputs: print a lot', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'run_command', arguments: { command: COMMAND } }] },
  {
    expect: { lastMessageContains: 'read_command_output cmd_id=1' },
    toolCalls: [{ name: 'read_command_output', arguments: { cmd_id: 1, filter: 'READ-MARKER' } }],
  },
  finishTurn({ lastMessageContains: READ }),
  // A later run (a new job) reads the same output: it lives in Postgres, not in a worker.
  { expect: { lastMessageRole: 'user', lastMessageContains: 'read it again' }, toolCalls: [{ name: 'read_command_output', arguments: { cmd_id: 1, offset: 20001, limit: 1 } }] },
  finishTurn({ lastMessageContains: READ }),
]);

describe('tool outputs: stored once per session, absent from the event log and the streams', () => {
  const ctx = useScriptedRunStack([bigOutput]);

  it('should keep a 2 MB command output out of events and frames while read_command_output and the outputs route return it', async () => {
    const world = await createRunWorld(ctx.stack, 'outputs');
    const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'bypass' });
    const sessionId: string = created.body.id;
    const frames: string[] = [];
    const abort = new AbortController();
    const reading = readSse(ctx.stack.url, `/api/v1/sessions/${sessionId}/events/stream`, world.client, (f) => f.data !== undefined && frames.push(f.data), {
      signal: abort.signal,
    });
    let socket: Socket | undefined;
    try {
      socket = await connectSocket(ctx.stack.url, { cookieOf: world.client });
      socket.on('event', (e: unknown) => frames.push(JSON.stringify(e)));
      socket.on('delta', (e: unknown) => frames.push(JSON.stringify(e)));
      expect((await emitAck(socket, 'subscribe', { sessionId, afterSeq: 0 })).ok).toBe(true);

      const first = await startRun(world, 'tool outputs: print a lot', { sessionId });
      expect((await waitForRunStatus(world.client, first.runId, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
      const events = await allEvents(world.client, sessionId);
      const ends = events.filter((e) => e.type === 'tool.end');
      const run = ends.find((e) => e.data.name === 'run_command');
      expect(run.data).toMatchObject({ outputId: 1, outputLabel: COMMAND, outputBytes: Buffer.byteLength(EXPECTED), outputTruncated: false });
      expect(run.data).not.toHaveProperty('fullOutput');
      expect(Buffer.byteLength(run.data.result)).toBeLessThan(4000);
      expect(run.data.result).toContain('[cmd #1]');
      // The model read the line it asked for, in the same run.
      expect(ends.find((e) => e.data.name === 'read_command_output').data.result).toContain(READ);

      // A later run of the session (a new job, maybe another worker) reads it from Postgres.
      const second = await startRun(world, 'now read it again', { sessionId });
      expect((await waitForRunStatus(world.client, second.runId, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
      const later = (await allEvents(world.client, sessionId)).filter((e) => e.runId === second.runId && e.type === 'tool.end');
      expect(later.find((e) => e.data.name === 'read_command_output').data).toMatchObject({ isError: false, result: expect.stringContaining(READ) });

      // Nothing in the log, in Postgres itself or on either stream carries the full text.
      const lastSeq = (await allEvents(world.client, sessionId)).at(-1).seq;
      const db = new Client({ connectionString: ctx.stack.config.env.DATABASE_URL });
      await db.connect();
      try {
        const [log] = (
          await db.query(`SELECT max(octet_length(data::text)) AS biggest, bool_or(strpos(data::text, $2) > 0) AS leaked FROM "Event" WHERE "sessionId" = $1`, [
            sessionId,
            HIDDEN,
          ])
        ).rows;
        expect(Number(log.biggest)).toBeLessThan(FRAME_LIMIT);
        expect(log.leaked).toBe(false);
        const stored = (await db.query(`SELECT number, bytes, truncated, content, "callId" FROM "ToolOutput" WHERE "sessionId" = $1`, [sessionId])).rows;
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({ number: 1, bytes: Buffer.byteLength(EXPECTED), truncated: false, callId: run.data.toolCallId });
        expect(stored[0].content).toBe(EXPECTED);
      } finally {
        await db.end();
      }
      await waitForFrames(frames, lastSeq);
      expect(Math.max(...frames.map((f) => Buffer.byteLength(f)))).toBeLessThan(FRAME_LIMIT);
      expect(frames.some((f) => f.includes(HIDDEN))).toBe(false);
      expect(frames.some((f) => f.includes('"fullOutput"'))).toBe(false);

      // The API route returns the whole text, in byte ranges.
      let text = '';
      let offset: number | null = 0;
      let pages = 0;
      while (offset !== null) {
        const url = `/api/v1/sessions/${sessionId}/outputs/1?offset=${offset}&limit=262144`;
        const page: { status: number; body: { content: string; nextOffset: number | null } } = await world.client.get(url);
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ outputId: 1, label: COMMAND, bytes: Buffer.byteLength(EXPECTED), truncated: false, offset });
        expect(Buffer.byteLength(page.body.content)).toBeLessThanOrEqual(262144);
        text += page.body.content;
        offset = page.body.nextOffset;
        pages++;
      }
      expect(pages).toBeGreaterThan(7);
      expect(text).toBe(EXPECTED);
      // The default range is 256 KiB.
      expect((await world.client.get(`/api/v1/sessions/${sessionId}/outputs/1`)).body.nextOffset).toBe(262144);
      expect(errorCode(await world.client.get(`/api/v1/sessions/${sessionId}/outputs/2`))).toBe('OUTPUT_NOT_FOUND');
      expect(errorCode(await world.client.get(`/api/v1/sessions/${sessionId}/outputs/0`))).toBe('BAD_OUTPUT_ID');
      const tooMuch = await world.client.get(`/api/v1/sessions/${sessionId}/outputs/1?limit=99999999`);
      expect(tooMuch.status).toBe(400);
    } finally {
      socket?.close();
      abort.abort();
      await reading;
    }
  });

  it('should number concurrent outputs (ToolOutputRepository) of one session without a gap and slice on character boundaries', async () => {
    const world = await createRunWorld(ctx.stack, 'output-repo');
    const created = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const sessionId: string = created.body.id;
    const repo = ctx.stack.api.get(ToolOutputRepository);
    const refs = await Promise.all(Array.from({ length: 5 }, (_, i) => repo.create({ sessionId, label: `o${i}`, content: `✓✓✓ ${i}`, truncated: false })));
    expect(refs.map((r) => r.number).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(refs[0]).toMatchObject({ bytes: Buffer.byteLength('✓✓✓ 0'), truncated: false });
    // '✓' is 3 bytes: a range starting at byte 1 moves to byte 3, one ending inside a character stops before it.
    const n = refs[0].number;
    expect(await repo.slice(sessionId, n, 1, 4)).toMatchObject({ offset: 3, content: '✓', nextOffset: 6 });
    expect(await repo.slice(sessionId, n, 0, 7)).toMatchObject({ offset: 0, content: '✓✓', nextOffset: 6 });
    expect(await repo.slice(sessionId, n, 0, 1)).toMatchObject({ offset: 0, content: '✓', nextOffset: 3 });
    expect(await repo.slice(sessionId, n, 9, 100)).toMatchObject({ offset: 9, content: ' 0', nextOffset: null });
    expect(await repo.slice(sessionId, n, 500, 100)).toMatchObject({ content: '', nextOffset: null });
    expect(await repo.slice(sessionId, 99, 0, 100)).toBeNull();
  });
});

/** Both streams delivered the log up to `lastSeq` (each persisted event arrives once per transport). */
async function waitForFrames(frames: string[], lastSeq: number): Promise<void> {
  await waitFor(`both streams to reach seq ${lastSeq}`, async () => frames.filter((f) => (JSON.parse(f) as { seq?: number }).seq === lastSeq).length >= 2);
}
