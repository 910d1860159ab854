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

  it('should send a model request while the events before it are written, and pass its answer on only after', async () => {
    const store = gatedStore();
    const writer = new RunEventWriter(store.write, () => undefined);
    let requested = false;
    const model: ModelProvider = {
      id: 'scripted',
      async *stream() {
        requested = true;
        yield { type: 'text', delta: 'hi' } satisfies ModelStreamEvent;
      },
    };
    await writer.push(ev('tool.end'));
    const seen: string[] = [];
    const consumed = (async () => {
      for await (const e of writer.provider(model).stream({} as never)) seen.push(e.type);
    })();
    await tick();
    expect(requested).toBe(true);
    expect(seen).toEqual([]);
    await store.releaseAll();
    await consumed;
    expect(seen).toEqual(['text']);
    expect(store.batches).toEqual([['tool.end']]);
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
