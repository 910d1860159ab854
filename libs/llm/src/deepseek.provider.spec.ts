import { builtinScenarioDir, loadScenarioFile, startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { join } from 'node:path';
import { DeepSeekProvider, type DeepSeekProviderOptions } from './deepseek.provider';
import { ModelCancelledError, ModelError } from './model-error';
import type { ChatMessage, ModelRequest, ModelStreamEvent } from './model-provider';
import { collect, failure } from './testing/stream-helpers';

// Real HTTP on loopback against the project's scripted server: nothing about fetch is mocked.
const KEY = 'sk-test-0123456789abcdef';


function firstCallId(message: ChatMessage): string {
  const id = message.toolCalls?.[0]?.id;
  if (!id) throw new Error('no tool call in the message');
  return id;
}

function doneMessage(events: ModelStreamEvent[]): ChatMessage {
  const done = events.find((e) => e.type === 'done');
  if (!done || done.type !== 'done') throw new Error('no done event');
  return done.message;
}

describe(DeepSeekProvider.name, () => {
  let server: ScriptedModelServer;
  const provider = (options: Partial<DeepSeekProviderOptions> = {}): DeepSeekProvider =>
    new DeepSeekProvider({ apiKey: KEY, baseUrl: server.url, retryBaseDelayMs: 1, retryMaxDelayMs: 5, ...options });
  const ask = (content: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
    model: 'scripted:test',
    messages: [{ role: 'user', content }],
    ...extra,
  });

  beforeAll(async () => {
    server = await startScriptedModelServer({ apiKey: KEY });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('should stream thinking, text and split tool-call arguments and assemble the whole message', async () => {
    server.load({
      name: 'test',
      turns: [
        {
          thinking: 'I should look at the file before answering the user.',
          text: 'Let me read it.',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'src/some/rather/long/path/to/a/file.ts' } },
            { name: 'grep', arguments: { pattern: 'function add', path: 'src' } },
          ],
        },
      ],
    });
    const events = await collect(provider().stream(ask('read it')));

    const thinking = events.filter((e) => e.type === 'thinking');
    expect(thinking.length).toBeGreaterThan(1);
    expect(thinking.map((e) => (e.type === 'thinking' ? e.delta : '')).join('')).toBe('I should look at the file before answering the user.');
    expect(events.filter((e) => e.type === 'tool_call_start')).toEqual([
      expect.objectContaining({ index: 0, name: 'read_file' }),
      expect.objectContaining({ index: 1, name: 'grep' }),
    ]);
    const argDeltas = events.filter((e) => e.type === 'tool_call_delta' && e.index === 0);
    expect(argDeltas.length).toBeGreaterThanOrEqual(3);
    const message = doneMessage(events);
    expect(message).toMatchObject({ role: 'assistant', content: 'Let me read it.', reasoningContent: 'I should look at the file before answering the user.' });
    expect(message.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['read_file', { path: 'src/some/rather/long/path/to/a/file.ts' }],
      ['grep', { pattern: 'function add', path: 'src' }],
    ]);
    const done = events[events.length - 1];
    expect(done).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
    // The private header that routes body activity to the idle timer never leaves the process.
    expect(Object.keys(server.requests[0].headers).filter((h) => h.startsWith('x-h-'))).toEqual([]);
  });

  it('should report usage with cache hits when the next request repeats the previous one as a prefix', async () => {
    const system = 'You are H. '.repeat(200);
    server.load({ name: 'test', turns: [{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'done' }] });
    const first = await collect(provider().stream(ask('list', { messages: [{ role: 'system', content: system }, { role: 'user', content: 'list' }] })));
    const assistant = doneMessage(first);
    const secondMessages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: 'list' },
      assistant,
      { role: 'tool', toolCallId: firstCallId(assistant), content: 'a.ts\nb.ts', name: 'list_files' },
    ];
    const second = await collect(provider().stream(ask('list', { messages: secondMessages })));

    const usage1 = first.find((e) => e.type === 'usage');
    const usage2 = second.find((e) => e.type === 'usage');
    expect(usage1).toMatchObject({ usage: { cacheHitTokens: 0 } });
    if (usage2?.type !== 'usage') throw new Error('no usage');
    expect(usage2.usage.cacheHitTokens).toBeGreaterThanOrEqual(512);
    expect(usage2.usage.cacheHitTokens % 64).toBe(0);
    expect(usage2.usage.cacheHitTokens + usage2.usage.cacheMissTokens).toBe(usage2.usage.promptTokens);
  });

  it('should send reasoning_content back so a thinking-mode tool turn is accepted', async () => {
    server.load({ name: 'test', turns: [{ thinking: 'need a file', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }, { text: 'ok' }] });
    const first = doneMessage(await collect(provider().stream(ask('go', { thinking: true }))));
    const next: ChatMessage[] = [{ role: 'user', content: 'go' }, first, { role: 'tool', toolCallId: firstCallId(first), content: 'x' }];
    const sent = await collect(provider().stream(ask('go', { thinking: true, messages: next })));
    expect(doneMessage(sent).content).toBe('ok');
    expect(server.requests[1].body.messages[1].reasoning_content).toBe('need a file');

    server.reset();
    server.load({ name: 'test', turns: [{ thinking: 'need a file', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }, { text: 'ok' }] });
    const again = doneMessage(await collect(provider().stream(ask('go', { thinking: true }))));
    const stripped: ChatMessage = { ...again, reasoningContent: undefined };
    const err = await failure(collect(provider().stream(ask('go', { thinking: true, messages: [{ role: 'user', content: 'go' }, stripped, { role: 'tool', toolCallId: firstCallId(again), content: 'x' }] }))));
    expect(err.code).toBe('bad_request');
    expect(err.message).toMatch(/reasoning_content/);
  });

  it('should retry a 429 (respecting Retry-After) and a 500 and then succeed', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'rate_limit', retryAfterSeconds: 0 }, text: 'after 429' }] });
    expect(doneMessage(await collect(provider().stream(ask('a')))).content).toBe('after 429');
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);

    server.reset();
    server.load({ name: 'test', turns: [{ fault: { type: 'server_error', status: 503, times: 2 }, text: 'after 503s' }] });
    expect(doneMessage(await collect(provider().stream(ask('b')))).content).toBe('after 503s');
    expect(server.requests.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('should retry a connection dropped before anything reached the caller', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'drop', afterChunks: 1 }, text: 'complete answer' }] });
    const events = await collect(provider().stream(ask('a')));
    expect(doneMessage(events).content).toBe('complete answer');
    expect(server.requests.map((r) => r.outcome)).toEqual(['dropped', 'completed']);
  });

  it('should retry an error sent inside the stream before any output, as a server error', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'stream_error', afterChunks: 1 }, text: 'second try' }] });
    expect(doneMessage(await collect(provider().stream(ask('a')))).content).toBe('second try');
    expect(server.requests.map((r) => r.fault ?? r.outcome)).toEqual(['stream_error', 'completed']);

    server.reset();
    server.load({ name: 'test', turns: [{ fault: { type: 'stream_error', afterChunks: 1, times: 9 }, text: 'never' }] });
    const err = await failure(collect(provider({ maxRetries: 1 }).stream(ask('b'))));
    expect(err.code).toBe('server');
    expect(err.message).toMatch(/error inside the stream.*Server overloaded/);
  });

  it('should not retry once part of the answer was streamed to the caller', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'drop', afterChunks: 3 }, text: 'a long answer that is cut off in the middle of the stream' }] });
    const seen: ModelStreamEvent[] = [];
    const err = await failure(
      (async () => {
        for await (const e of provider().stream(ask('a'))) seen.push(e);
      })(),
    );
    expect(seen.some((e) => e.type === 'text')).toBe(true);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('network');
    expect(server.requests).toHaveLength(1);
  });

  it('should give up after maxRetries with a rate_limited error saying what to do', async () => {
    server.load({ name: 'test', turns: [{ text: 'never' }] });
    server.injectFault({ type: 'rate_limit', retryAfterSeconds: 0, times: 10 });
    const err = await failure(collect(provider({ maxRetries: 2 }).stream(ask('a'))));
    expect(err.code).toBe('rate_limited');
    expect(err.attempts).toBe(3);
    expect(err.message).toMatch(/HTTP 429.*retry/i);
    expect(server.requests).toHaveLength(3);
  });

  it('should fail at once when Retry-After asks for longer than it is willing to wait', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'rate_limit', retryAfterSeconds: 120 }, text: 'x' }] });
    const err = await failure(collect(provider({ maxRetryAfterMs: 1000 }).stream(ask('a'))));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it('should stop a slow stream promptly on abort and close the connection', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'slow', chunkDelayMs: 200 }, text: 'x'.repeat(400) }] });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const err = await failure(
      (async () => {
        for await (const e of provider().stream(ask('a', { signal: controller.signal }))) {
          seen.push(e);
          if (e.type === 'text') controller.abort();
        }
      })(),
    );
    expect(err).toBeInstanceOf(ModelCancelledError);
    expect(err.code).toBe('cancelled');
    expect(err.name).toBe('AbortError');
    expect(seen.filter((e) => e.type === 'text')).toHaveLength(1);
    await server.waitFor(() => server.requests[0]?.outcome === 'client_closed');
  });

  it('should abort the HTTP request when the caller stops iterating early', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'slow', chunkDelayMs: 200 }, text: 'y'.repeat(400) }] });
    for await (const e of provider().stream(ask('a'))) {
      if (e.type === 'text') break;
    }
    await server.waitFor(() => server.requests[0]?.outcome === 'client_closed');
  });

  it('should cancel while waiting to retry', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'rate_limit', retryAfterSeconds: 30 }, text: 'x' }] });
    const controller = new AbortController();
    const pending = failure(collect(provider().stream(ask('a', { signal: controller.signal }))));
    await server.waitFor(() => server.requests.length === 1 && server.requests[0].status === 429);
    controller.abort();
    expect(await pending).toBeInstanceOf(ModelCancelledError);
  });

  it('should time out when the server sends nothing, before and during the stream', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'hang' }, text: 'x' }] });
    const before = await failure(collect(provider({ timeoutMs: 150, maxRetries: 0 }).stream(ask('a'))));
    expect(before.code).toBe('timeout');
    expect(before.message).toMatch(/sent nothing/);

    server.reset();
    server.load({ name: 'test', turns: [{ fault: { type: 'hang', afterChunks: 1, times: 2 }, text: 'x' }] });
    const during = await failure(collect(provider({ timeoutMs: 150, maxRetries: 1 }).stream(ask('b'))));
    expect(during.code).toBe('timeout');
    expect(during.attempts).toBe(2);
    await server.waitFor(() => server.requests.every((r) => r.outcome === 'client_closed'));
  });

  it('should count keep-alive comments of a queued request as activity, not as silence', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'queued', forMs: 600, keepAliveMs: 40 }, text: 'served after queueing' }] });
    const events = await collect(provider({ timeoutMs: 250, maxRetries: 0 }).stream(ask('a')));
    expect(doneMessage(events).content).toBe('served after queueing');
  });

  it('should report a rejected API key as an auth error that says where to set it and never shows the key', async () => {
    const wrongKey = 'sk-wrong-key-1234567890';
    const err = await failure(collect(provider({ apiKey: wrongKey }).stream(ask('a'))));
    expect(err.code).toBe('auth');
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/API key/);
    expect(err.message).toMatch(/Settings → DeepSeek API key/);
    expect(err.message).not.toContain(wrongKey);
    expect(server.requests).toHaveLength(1);
  });

  it('should report a missing API key without calling the server', async () => {
    const err = await failure(collect(provider({ apiKey: '' }).stream(ask('a'))));
    expect(err.code).toBe('auth');
    expect(server.requests).toHaveLength(0);
  });

  it('should map a context overflow to context_length', async () => {
    server.load({ name: 'test', turns: [{ fault: { type: 'context_length' }, text: 'x' }] });
    const err = await failure(collect(provider().stream(ask('a'))));
    expect(err.code).toBe('context_length');
    expect(err.message).toMatch(/Compact the history|new session/);
  });

  it('should report a network error when nothing listens at the base URL', async () => {
    const closed = await startScriptedModelServer();
    const url = closed.url;
    await closed.close();
    const err = await failure(collect(new DeepSeekProvider({ apiKey: KEY, baseUrl: url, maxRetries: 1, retryBaseDelayMs: 1 }).stream(ask('a'))));
    expect(err.code).toBe('network');
    expect(err.attempts).toBe(2);
    expect(err.message).toContain(url);
  });

  it('should get through the shipped flaky-provider scenario (429, 500, drop, slow) with retries', async () => {
    server.load(loadScenarioFile(join(builtinScenarioDir(), 'flaky-provider.json')));
    const messages: ChatMessage[] = [{ role: 'user', content: 'flaky' }];
    const answers: ChatMessage[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const message = doneMessage(await collect(provider().stream(ask('flaky', { model: 'scripted:flaky-provider', messages }))));
      answers.push(message);
      messages.push(message);
      for (const call of message.toolCalls ?? []) messages.push({ role: 'tool', toolCallId: call.id, content: 'a.ts' });
      if (!message.toolCalls) messages.push({ role: 'user', content: 'go on' });
    }
    expect(answers.map((a) => a.content ?? a.toolCalls?.[0].name)).toEqual(['answer after a 429', 'answer after a 500', 'list_files', 'a slow but complete answer']);
    expect(server.requests.map((r) => r.fault ?? r.outcome)).toEqual(['rate_limit', 'completed', 'server_error', 'completed', 'drop', 'completed', 'slow']);
    expect(server.failures).toEqual([]);
  });

  it('should surface a scenario expectation failure as a bad_request naming the scenario and turn', async () => {
    server.load({ name: 'test', turns: [{ expect: { toolsInclude: ['task_complete'] }, text: 'x' }] });
    const err = await failure(collect(provider().stream(ask('a'))));
    expect(err.code).toBe('bad_request');
    expect(err.message).toContain('scenario "test" turn 1');
    expect(err.message).toContain('should offer tool "task_complete"');
  });

  it('should run concurrent conversations side by side, keyed by the x-conversation-id header', async () => {
    server.load({ name: 'test', turns: [{ text: 'first' }, { text: 'second' }] });
    const run = async (id: string): Promise<string[]> => {
      const headers = { 'x-conversation-id': id };
      const one = doneMessage(await collect(provider().stream(ask('same prompt', { headers }))));
      const messages: ChatMessage[] = [{ role: 'user', content: 'same prompt' }, one, { role: 'user', content: 'more' }];
      const two = doneMessage(await collect(provider().stream(ask('same prompt', { headers, messages }))));
      return [one.content ?? '', two.content ?? ''];
    };
    const results = await Promise.all(['run-a', 'run-b', 'run-c'].map(run));
    expect(results).toEqual([['first', 'second'], ['first', 'second'], ['first', 'second']]);
  });

  it('should get the labelled demo answer for a real model name when no scenario is loaded', async () => {
    const demo = await startScriptedModelServer();
    try {
      const events = await collect(new DeepSeekProvider({ apiKey: KEY, baseUrl: demo.url }).stream(ask('hello', { model: 'deepseek-v4-flash' })));
      expect(doneMessage(events).content).toMatch(/^\[scripted demo model\]/);
      expect(demo.requests[0].body.thinking).toEqual({ type: 'enabled' });
    } finally {
      await demo.close();
    }
  });

  describe('request body', () => {
    const body = (req: Partial<ModelRequest>) => provider().buildBody({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'q' }], ...req });

    it('should toggle thinking on v4 models and drop temperature while thinking', () => {
      expect(body({ thinking: false, temperature: 0.2 })).toMatchObject({ thinking: { type: 'disabled' }, temperature: 0.2 });
      const on = body({ thinking: true, temperature: 0.2 });
      expect(on.thinking).toEqual({ type: 'enabled' });
      expect(on).not.toHaveProperty('temperature');
      expect(body({}).thinking).toEqual({ type: 'enabled' });
      expect(body({ thinking: true, reasoningEffort: 'max' }).reasoning_effort).toBe('max');
      expect(body({ thinking: false, reasoningEffort: 'max' })).not.toHaveProperty('reasoning_effort');
    });

    it('should let the legacy model names decide thinking themselves', () => {
      expect(body({ model: 'deepseek-reasoner', thinking: false })).not.toHaveProperty('thinking');
      expect(body({ model: 'deepseek-chat', thinking: true, temperature: 0 })).toMatchObject({ temperature: 0 });
      expect(body({ model: 'deepseek-chat', thinking: true })).not.toHaveProperty('thinking');
    });

    it('should ask for usage in the stream and send tools and history in a stable wire form', () => {
      const b = body({
        tools: [{ name: 'read_file', description: 'Read', parameters: { type: 'object' } }],
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: null, reasoningContent: 'r', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'text' },
        ],
      });
      expect(b.stream_options).toEqual({ include_usage: true });
      expect(b.tools).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Read', parameters: { type: 'object' } } }]);
      expect(b.messages).toEqual([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, reasoning_content: 'r', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
        { role: 'tool', content: 'text', tool_call_id: 'c1' },
      ]);
    });
  });
});
