import type { EventEnvelope } from '@h/db';
import { orderForRebuild } from './event-order';

let seq = 0;
const ev = (runId: string | null, type: string): EventEnvelope => ({ sessionId: 's', seq: ++seq, runId, ts: '', type, data: {} });
const shape = (events: EventEnvelope[]) => events.map((e) => `${e.runId}:${e.type}`);

describe(orderForRebuild.name, () => {
  beforeEach(() => (seq = 0));

  it('should keep a message posted during an earlier run out of that run', () => {
    const log = [ev('a', 'message.user'), ev('a', 'run.started'), ev('b', 'message.user'), ev('a', 'message.assistant'), ev('a', 'run.done')];
    expect(shape(orderForRebuild(log, 'a'))).toEqual(['a:message.user', 'a:run.started', 'a:message.assistant', 'a:run.done']);
  });

  it('should put the next run’s message after the previous run when that run starts', () => {
    const log = [ev('a', 'message.user'), ev('a', 'run.started'), ev('b', 'message.user'), ev('a', 'run.done')];
    expect(shape(orderForRebuild(log, 'b'))).toEqual(['a:message.user', 'a:run.started', 'a:run.done', 'b:message.user']);
    const later = [...log, ev('b', 'run.started'), ev('b', 'message.assistant')];
    expect(shape(orderForRebuild(later, 'b'))).toEqual([
      'a:message.user',
      'a:run.started',
      'a:run.done',
      'b:message.user',
      'b:run.started',
      'b:message.assistant',
    ]);
  });

  it('should leave out messages of runs that never started', () => {
    const log = [ev('a', 'message.user'), ev('x', 'message.user'), ev('x', 'run.cancelled'), ev('a', 'run.started'), ev('a', 'run.done')];
    expect(shape(orderForRebuild(log, 'a'))).not.toContain('x:message.user');
  });
});
