import type { AgentEvent } from '@h/contracts';
import type { ModelProvider, ModelStreamEvent } from '@h/llm';
import { RunEventWriter } from './run-event-writer';

const ev = (type: string, data: Record<string, unknown> = {}) => ({ type, data }) as unknown as AgentEvent;
const toolStart = (category: string | null) => ev('tool.start', { toolCallId: 'c', name: 't', arguments: '{}', category });

/** A write that stays open until released, recording each batch's types. */
function gatedStore() {
  const batches: string[][] = [];
  const gates: Array<() => void> = [];
  const published: string[][] = [];
  const write = (batch: AgentEvent[]) =>
    new Promise<() => Promise<void>>((resolve) => {
      batches.push(batch.map((e) => e.type));
      gates.push(() => resolve(async () => void published.push(batch.map((e) => e.type))));
    });
  const releaseAll = async () => {
    while (gates.length) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { batches, published, write, releaseAll };
}

const tick = () => new Promise((r) => setImmediate(r));

describe(RunEventWriter.name, () => {
  it('should write events pushed in one stretch as one batch, and later ones in the next, in order', async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    await writer.push(ev('message.assistant'));
    await writer.push(ev('usage'));
    await tick();
    await writer.push(ev('tool.end'));
    await writer.push(ev('todos.updated'));
    expect(store.batches).toEqual([['message.assistant', 'usage']]);
    const flushed = writer.flush();
    await store.releaseAll();
    await flushed;
    expect(store.batches).toEqual([['message.assistant', 'usage'], ['tool.end', 'todos.updated']]);
    expect(store.published).toEqual(store.batches);
  });

  it("should write a response's events in one batch with its first call that changes something", async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    await writer.push(ev('message.assistant', { toolCalls: [{ id: 'c' }] }));
    await writer.push(ev('usage'));
    await tick();
    // Nothing written yet: the call's authorisation is still on its way.
    expect(store.batches).toEqual([]);
    let started = false;
    const command = writer.push(toolStart('command')).then(() => (started = true));
    await tick();
    expect(store.batches).toEqual([['message.assistant', 'usage', 'tool.start']]);
    expect(started).toBe(false);
    await store.releaseAll();
    await command;
    expect(store.published).toEqual([['message.assistant', 'usage', 'tool.start']]);
  });

  it("should write a response's events with its first call when that call only reads", async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    await writer.push(ev('message.assistant', { toolCalls: [{ id: 'c' }] }));
    await writer.push(ev('usage'));
    await writer.push(toolStart('read'));
    await tick();
    expect(store.batches).toEqual([['message.assistant', 'usage', 'tool.start']]);
  });

  it("should write a response's events on their own when no call starts within the hold", async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const store = gatedStore();
      const writer = new RunEventWriter(store.write, () => undefined);
      await writer.push(ev('message.assistant', { toolCalls: [{ id: 'c' }] }));
      await writer.push(ev('usage'));
      jest.advanceTimersByTime(49);
      expect(store.batches).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(store.batches).toEqual([['message.assistant', 'usage']]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('should hold a call that changes something until everything before it is written, but not a read', async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    let readReturned = false;
    void writer.push(toolStart('read')).then(() => (readReturned = true));
    await tick();
    expect(readReturned).toBe(true);

    let commandReturned = false;
    const command = writer.push(toolStart('command')).then(() => (commandReturned = true));
    await tick();
    expect(commandReturned).toBe(false);
    await store.releaseAll();
    await command;
    expect(store.batches.flat()).toEqual(['tool.start', 'tool.start']);
  });

  it('should send a model request and pass its answer on while the events before it are written', async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    const model: ModelProvider = {
      id: 'scripted',
      async *stream() {
        yield { type: 'tool_call_start', index: 0, id: 'c', name: 'read_file' } satisfies ModelStreamEvent;
      },
    };
    await writer.push(ev('tool.end'));
    const seen: string[] = [];
    for await (const e of writer.provider(model).stream({} as never)) seen.push(e.type);
    // The request started the write of what was queued; its answer did not wait for it.
    expect(store.batches).toEqual([['tool.end']]);
    expect(store.published).toEqual([]);
    expect(seen).toEqual(['tool_call_start']);
    await writer.push(ev('message.assistant'));
    const flushed = writer.flush();
    await store.releaseAll();
    await flushed;
    expect(store.published).toEqual([['tool.end'], ['message.assistant']]);
  });

  it('should publish a delta after the events pushed before it and before those pushed after it', async () => {
    const store = gatedStore();
    const order: string[] = [];
    const writer = new RunEventWriter(
      (batch) => store.write(batch).then((publish) => async () => {
        await publish();
        order.push(...batch.map((e) => e.type));
      }),
      () => undefined,
    );
    await writer.push(ev('tool.end'));
    writer.pushEphemeral(async () => void order.push('delta 1'));
    writer.pushEphemeral(async () => void order.push('delta 2'));
    await writer.push(ev('message.assistant'));
    await tick();
    expect(order).toEqual([]); // tool.end is not persisted yet
    const flushed = writer.flush();
    await store.releaseAll();
    await flushed;
    expect(order).toEqual(['tool.end', 'delta 1', 'delta 2', 'message.assistant']);
    expect(store.batches).toEqual([['tool.end'], ['message.assistant']]);
  });

  it('should issue each publish without waiting for the reply to the one before, and flush only once all are answered', async () => {
    const replies: Array<() => void> = [];
    const issued: string[] = [];
    const writer = new RunEventWriter(
      async (batch) => () => {
        issued.push(batch.map((e) => e.type).join());
        return new Promise<void>((r) => replies.push(r));
      },
      () => undefined,
    );
    await writer.push(ev('tool.end'));
    await tick();
    await writer.push(ev('message.assistant'));
    let flushed = false;
    const flush = writer.flush().then(() => (flushed = true));
    for (let i = 0; i < 5; i++) await tick();
    expect(issued).toEqual(['tool.end', 'message.assistant']);
    expect(flushed).toBe(false);
    for (const r of replies) r();
    await flush;
    expect(flushed).toBe(true);
  });

  it('should commit durably only the batches that end with a barrier (a call that changes something, the run end)', async () => {
    const writes: Array<[string[], boolean]> = [];
    const writer = new RunEventWriter(async (batch, durable) => {
      writes.push([batch.map((e) => e.type), durable]);
      return async () => undefined;
    }, () => undefined);
    await writer.push(ev('message.assistant'));
    await writer.push(toolStart('read'));
    await tick();
    await writer.push(toolStart('command'));
    await writer.push(ev('tool.end'));
    await tick();
    await writer.push(ev('run.done'));
    expect(writes).toEqual([
      [['message.assistant', 'tool.start'], false],
      [['tool.start'], true],
      [['tool.end'], false],
      [['run.done'], true],
    ]);
  });

  it('should fail the next barrier and the final flush when a write fails, and say so once', async () => {
    const failures: unknown[] = [];
    const writer = new RunEventWriter(
      async () => {
        throw new Error('lease lost');
      },
      (err) => failures.push(err),
    );
    await writer.push(ev('message.assistant'));
    await expect(writer.push(toolStart('write'))).rejects.toThrow('lease lost');
    await writer.push(ev('tool.end'));
    await expect(writer.flush()).rejects.toThrow('lease lost');
    expect(failures).toHaveLength(1);
  });

  it('should fail the final flush when a publish fails', async () => {
    const writer = new RunEventWriter(
      async () => async () => {
        throw new Error('redis down');
      },
      () => undefined,
    );
    await writer.push(ev('tool.end'));
    await expect(writer.flush()).rejects.toThrow('redis down');
  });

  it('should treat the end of a run as a barrier', async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    let done = false;
    const end = writer.push(ev('run.done')).then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    await store.releaseAll();
    await end;
    expect(store.batches).toEqual([['run.done']]);
  });
});
