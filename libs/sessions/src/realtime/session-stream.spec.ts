import type { BusMessage, EventEnvelope, EventRepository } from '@h/db';
import { SessionStream, type StreamEnd, type StreamLimits, type StreamSink } from './session-stream';

const LIMITS: StreamLimits = { pageSize: 10, pageMaxBytes: 1 << 20, clientBufferBytes: 1000, stallTimeoutMs: 60_000 };

const envelope = (seq: number): EventEnvelope => ({ sessionId: 's', seq, runId: null, ts: '2026-12-01T00:00:00.000Z', type: 'note', data: { n: seq } });

/** The log as the repository pages it. */
function fakeLog(initial: number) {
  const events = Array.from({ length: initial }, (_, i) => envelope(i + 1));
  const repo = {
    reads: 0,
    async page(_s: string, o: { after: number; limit: number }) {
      repo.reads++;
      const rest = events.filter((e) => e.seq > o.after);
      return { items: rest.slice(0, o.limit), hasMore: rest.length > o.limit };
    },
  };
  const append = (): EventEnvelope => {
    const e = envelope(events.length + 1);
    events.push(e);
    return e;
  };
  return { events, repo, append };
}

/** A transport whose client takes bytes only when told to; each event costs 100 bytes. */
function fakeSink() {
  const sink = {
    got: [] as number[],
    held: 0,
    ended: null as StreamEnd | null,
    waiters: [] as Array<() => void>,
    event(e: EventEnvelope) {
      sink.got.push(e.seq);
      sink.held += 100;
      return sink.held <= 300;
    },
    ephemeral: () => undefined,
    buffered: () => sink.held,
    drained: () => new Promise<void>((r) => sink.waiters.push(r)),
    end(reason: StreamEnd) {
      sink.ended = reason;
    },
    /** The client reads everything held. */
    read() {
      sink.held = 0;
      for (const w of sink.waiters.splice(0)) w();
    },
  };
  return sink;
}

const flush = () => new Promise((r) => setImmediate(r));
const live = (e: EventEnvelope): BusMessage => ({ kind: 'event', event: e });

function open(repo: unknown, sink: StreamSink, limits = LIMITS) {
  const closed: SessionStream[] = [];
  const stream = new SessionStream('s', 0, repo as EventRepository, sink, limits, (s) => closed.push(s));
  return { stream, closed };
}

describe(SessionStream.name, () => {
  it('should write the next replay event only after the client drained, holding little meanwhile', async () => {
    const log = fakeLog(25);
    const sink = fakeSink();
    const { stream } = open(log.repo, sink);
    const started = stream.start();
    await flush();
    expect(sink.got).toEqual([1, 2, 3, 4]);
    expect(stream.paused).toBe(true);
    expect(stream.peakBuffered).toBe(400);
    for (let i = 0; i < 10 && sink.got.length < 25; i++) {
      sink.read();
      await flush();
    }
    await started;
    expect(sink.got).toEqual(log.events.map((e) => e.seq));
    expect(stream.peakBuffered).toBe(400);
  });

  it('should hold no live events during a replay but read on to the newest seq announced', async () => {
    const log = fakeLog(5);
    const sink = fakeSink();
    const { stream } = open(log.repo, sink);
    const started = stream.start();
    await flush();
    // Published while the replay waits: only noted, then read from the log.
    for (let i = 0; i < 50; i++) stream.push(live(log.append()));
    for (let i = 0; i < 60 && sink.got.length < 55; i++) {
      sink.read();
      await flush();
    }
    await started;
    expect(sink.got).toEqual(Array.from({ length: 55 }, (_, i) => i + 1));
  });

  it('should cut a live client that holds more than the client buffer, once, and write nothing more', async () => {
    const log = fakeLog(0);
    const sink = fakeSink();
    const { stream, closed } = open(log.repo, sink);
    await stream.start();
    for (let i = 0; i < 20; i++) stream.push(live(log.append()));
    // 1000 bytes allowed: the 11th event still finds 1000 held and is written; the 12th finds 1100 and cuts.
    expect(sink.got.length).toBe(11);
    expect(sink.ended).toMatchObject({ code: 'SLOW_CONSUMER', lastSeq: 11 });
    expect(sink.ended?.message).toContain('STREAM_CLIENT_BUFFER_BYTES');
    expect(closed).toEqual([stream]);
    expect(stream.peakBuffered).toBe(1100);
  });

  it('should end a replay that cannot write for the stall timeout', async () => {
    jest.useFakeTimers();
    try {
      const log = fakeLog(10);
      const sink = fakeSink();
      const { stream, closed } = open(log.repo, sink, { ...LIMITS, stallTimeoutMs: 5000 });
      const started = stream.start();
      await jest.advanceTimersByTimeAsync(4999);
      expect(sink.ended).toBeNull();
      await jest.advanceTimersByTimeAsync(1);
      await started;
      expect(sink.ended).toMatchObject({ code: 'STREAM_STALLED', lastSeq: 4 });
      expect(closed).toEqual([stream]);
    } finally {
      jest.useRealTimers();
    }
  });
});
