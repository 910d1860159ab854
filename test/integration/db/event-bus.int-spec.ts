import { randomUUID } from 'node:crypto';
import { AppConfig, parseEnv } from '@h/config';
import { EventBusRepository, RedisService, type BusMessage, type EventEnvelope } from '@h/db';
import { waitFor } from '../../support/wait-for';
import { TEST_REDIS_URL } from '../../support/test-env';

// The bus over real Redis: an append's events travel as one message per session, and every
// listener still gets each event on its own, in seq order, for the sessions it wants.
describe('event bus', () => {
  let redis: RedisService;
  let publisher: EventBusRepository;
  let subscriber: EventBusRepository;

  beforeAll(() => {
    const config = new AppConfig(parseEnv({ NODE_ENV: 'test', REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `h-bus-${randomUUID()}` }));
    redis = new RedisService(config);
    publisher = new EventBusRepository(redis);
    subscriber = new EventBusRepository(redis);
  });

  afterAll(async () => {
    await subscriber.onModuleDestroy();
    await publisher.onModuleDestroy();
    await redis.onModuleDestroy();
  });

  const event = (sessionId: string, seq: number): EventEnvelope => ({ sessionId, seq, runId: null, ts: new Date().toISOString(), type: 'message.user', data: { content: `m${seq}` } });

  it('should deliver each event of a batch in order, only to the listeners that want its session', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const seen: Array<[string, number]> = [];
    const onlyA: number[] = [];
    const offAll = await subscriber.onMessage((sessionId, m: BusMessage) => m.kind === 'event' && seen.push([sessionId, m.event.seq]));
    const offA = await subscriber.onMessage((_s, m) => m.kind === 'event' && onlyA.push(m.event.seq), (sessionId) => sessionId === a);
    await publisher.publishEvents([event(a, 1), event(a, 2), event(b, 7), event(a, 3)]);
    await waitFor('the four events', async () => seen.length === 4);
    expect(seen.filter(([s]) => s === a).map(([, seq]) => seq)).toEqual([1, 2, 3]);
    expect(seen.filter(([s]) => s === b).map(([, seq]) => seq)).toEqual([7]);
    expect(onlyA).toEqual([1, 2, 3]);
    offAll();
    offA();
  });

  it('should deliver token deltas as they are', async () => {
    const sessionId = randomUUID();
    const frames: BusMessage[] = [];
    const off = await subscriber.onMessage((_s, m) => frames.push(m), (s) => s === sessionId);
    await publisher.publishEphemeral({ sessionId, runId: null, afterSeq: 4, ts: new Date().toISOString(), type: 'text.delta', data: { delta: 'hi' } });
    await waitFor('the delta', async () => frames.length === 1);
    expect(frames[0]).toMatchObject({ kind: 'ephemeral', frame: { sessionId, afterSeq: 4, data: { delta: 'hi' } } });
    off();
  });
});
