import { startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { createServer } from 'node:net';
import { computeCost, type ModelInfo } from './model-catalog';
import { ModelError } from './model-error';
import type { ModelUsage } from './model-provider';
import { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible.provider';
import { collect, failure } from './testing/stream-helpers';

// The generic provider a team's own server (vLLM, Ollama, a gateway) is reached with, over real
// HTTP on loopback against the scripted server; DeepSeek's dialect is covered by deepseek.provider.spec.ts.
const LOCAL_INFO: ModelInfo = {
  id: 'scripted:local', contextWindow: 32_768, maxOutput: 4096, known: true, thinking: 'never', defaultThinking: false,
  pricePerMillion: { cacheMiss: 1, cacheHit: 0.25, output: 2 },
};


async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe(OpenAICompatibleProvider.name, () => {
  let server: ScriptedModelServer;
  const provider = (options: Partial<OpenAICompatibleProviderOptions> = {}): OpenAICompatibleProvider =>
    new OpenAICompatibleProvider({
      id: 'custom:test',
      displayName: 'provider "Local vLLM"',
      baseUrl: server.url,
      modelInfo: () => LOCAL_INFO,
      hints: { key: 'Settings → OpenAI-compatible providers → Local vLLM' },
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      maxRetries: 1,
      ...options,
    });

  beforeAll(async () => {
    server = await startScriptedModelServer({ demo: false });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('should send no Authorization header and no vendor fields to a server without a key', async () => {
    server.load({ name: 'local', turns: [{ thinking: 'the model reasons by itself', text: 'hello' }, { text: 'second' }] });
    const first = await collect(provider().stream({ model: 'scripted:local', messages: [{ role: 'user', content: 'hi' }], thinking: true, reasoningEffort: 'high' }));
    const done = first.find((e) => e.type === 'done');
    expect(done?.type === 'done' && done.message).toEqual({ role: 'assistant', content: 'hello', reasoningContent: 'the model reasons by itself' });

    const history = [{ role: 'user' as const, content: 'hi' }, done?.type === 'done' ? done.message : { role: 'assistant' as const, content: '' }, { role: 'user' as const, content: 'again' }];
    await collect(provider().stream({ model: 'scripted:local', messages: history, thinking: true }));

    const [a, b] = server.requests;
    expect(a.headers.authorization).toBeUndefined();
    // A strict OpenAI-compatible server refuses unknown fields: no DeepSeek toggle, effort or reasoning echo.
    expect(a.body).not.toHaveProperty('thinking');
    expect(a.body).not.toHaveProperty('reasoning_effort');
    expect(b.body.messages[1]).toEqual({ role: 'assistant', content: 'hello' });
    expect(a.body.stream_options).toEqual({ include_usage: true });
  });

  it('should send the key as a bearer token and report usage with cached and reasoning tokens, priced by the model info', async () => {
    const keyed = await startScriptedModelServer({ demo: false, apiKey: 'sk-gateway-0123456789' });
    try {
      keyed.load({ name: 'local', turns: [{ thinking: 'some reasoning here', text: 'an answer of a few words' }] });
      const events = await collect(provider({ baseUrl: keyed.url, apiKey: 'sk-gateway-0123456789' }).stream({ model: 'scripted:local', messages: [{ role: 'user', content: 'count' }] }));
      const usage = events.find((e) => e.type === 'usage');
      const [request] = keyed.requests;
      expect(request.status).toBe(200);
      expect(usage?.type === 'usage' && usage.usage).toEqual<ModelUsage>({
        promptTokens: request.promptTokens,
        completionTokens: expect.any(Number),
        cacheHitTokens: request.cacheHitTokens,
        cacheMissTokens: request.promptTokens - request.cacheHitTokens,
        reasoningTokens: expect.any(Number),
      });
    } finally {
      await keyed.close();
    }
    const cost = computeCost(LOCAL_INFO, { promptTokens: 3_000_000, completionTokens: 1_000_000, cacheHitTokens: 2_000_000, cacheMissTokens: 1_000_000 });
    expect(cost).toBeCloseTo(2 * 0.25 + 1 * 1 + 1 * 2, 10);
  });

  it('should name the provider and where to fix the key when it answers 401, without retrying', async () => {
    const keyed = await startScriptedModelServer({ demo: false, apiKey: 'sk-right-key-0000000000' });
    try {
      keyed.load({ name: 'local', turns: [{ text: 'never' }] });
      const err = await failure(collect(provider({ baseUrl: keyed.url, apiKey: 'sk-wrong-key-1111111111' }).stream({ model: 'scripted:local', messages: [{ role: 'user', content: 'x' }] })));
      expect(err.code).toBe('auth');
      expect(err.message).toMatch(/^provider "Local vLLM" rejected the API key \(HTTP 401\)/);
      expect(err.message).toContain('Settings → OpenAI-compatible providers → Local vLLM');
      expect(err.message).not.toContain('deepseek');
      expect(err.message).not.toContain('sk-wrong-key-1111111111');
      expect(keyed.requests).toHaveLength(1);
    } finally {
      await keyed.close();
    }
  });

  it('should say the model or base URL is wrong when the server answers 404', async () => {
    // demo: false and no scenario: the scripted server answers 404 like a server without the model.
    const empty = await startScriptedModelServer({ demo: false });
    const err = await failure(collect(provider({ baseUrl: empty.url }).stream({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }))).finally(() => empty.close());
    expect(err.code).toBe('bad_request');
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/^provider "Local vLLM" has no model "no-such-model" at http:\/\/127\.0\.0\.1:\d+\/v1, or the base URL is wrong \(HTTP 404\)/);
  });

  it('should say the connection was refused, naming the provider and URL, when nothing listens', async () => {
    const port = await closedPort();
    const err = await failure(collect(provider({ baseUrl: `http://127.0.0.1:${port}/v1` }).stream({ model: 'scripted:local', messages: [{ role: 'user', content: 'x' }] })));
    expect(err.code).toBe('network');
    expect(err.message).toContain(`provider "Local vLLM" refused the connection at http://127.0.0.1:${port}/v1`);
    expect(err.attempts).toBe(2);
  });

  it("should fail with the transport's own refusal as it is, without retrying", async () => {
    let calls = 0;
    const refusing = (async () => {
      calls++;
      throw new ModelError('network', 'provider "Local vLLM": 10.0.0.5 is on a private address');
    }) as unknown as typeof fetch;
    const err = await failure(collect(provider({ fetch: refusing }).stream({ model: 'scripted:local', messages: [{ role: 'user', content: 'x' }] })));
    expect(err.message).toBe('provider "Local vLLM": 10.0.0.5 is on a private address');
    expect(calls).toBe(1);
  });

  it('should fail at once when a key is required and none is set', async () => {
    const err = await failure(collect(provider({ missingKeyMessage: 'Set a key first.' }).stream({ model: 'scripted:local', messages: [{ role: 'user', content: 'x' }] })));
    expect([err.code, err.message]).toEqual(['auth', 'Set a key first.']);
    expect(server.requests).toEqual([]);
  });
});
