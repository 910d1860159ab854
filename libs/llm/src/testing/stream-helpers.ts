import type { ModelError } from '../model-error';
import type { ModelStreamEvent } from '../model-provider';

// For the provider specs: a whole stream as a list, and the ModelError a call ends with.

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

export async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (err) {
    return err as ModelError;
  }
  throw new Error('expected the call to fail');
}
