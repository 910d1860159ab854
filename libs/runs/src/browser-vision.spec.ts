import type { ModelProvider, ModelRequest, ModelStreamEvent } from '@h/llm';
import { describeScreenshot } from './browser-vision';

function provider(events: ModelStreamEvent[] | Error, seen: ModelRequest[] = []): ModelProvider {
  return {
    id: 'fake',
    async *stream(request) {
      seen.push(request);
      if (events instanceof Error) throw events;
      yield* events;
    },
  };
}

describe(describeScreenshot.name, () => {
  it('should send the screenshot as an image to the vision model and return its text', async () => {
    const seen: ModelRequest[] = [];
    const text = await describeScreenshot(provider([{ type: 'text', delta: 'A login ' }, { type: 'text', delta: 'form.' }], seen), 'vision-1', 'PNG', 'Screenshot: 1024x768', new AbortController().signal);
    expect(text).toBe('A login form.');
    expect(seen[0].model).toBe('vision-1');
    expect(seen[0].messages[1]).toMatchObject({ role: 'user', content: 'Screenshot: 1024x768', images: [{ mimeType: 'image/png', data: 'PNG' }] });
  });

  it('should answer null when the vision model fails, so the tool says so instead of failing', async () => {
    expect(await describeScreenshot(provider(new Error('400')), 'v', 'PNG', 'h', new AbortController().signal)).toBeNull();
  });
});
