import { computeCost } from '@h/llm';
import { checkProviderModels, parseModelList, providerModelInfo, ProviderModelsError } from './provider-models';

describe('provider model lists', () => {
  it('should keep a valid list in a stable shape, defaulting the cache price to the input price', () => {
    expect(
      checkProviderModels([
        { id: 'llama3.1:8b', contextWindow: 131_072 },
        { id: 'gpt-4.1-mini', contextWindow: 1_000_000, maxOutput: 32_768, price: { input: 0.4, output: 1.6 } },
      ]),
    ).toEqual([
      { id: 'llama3.1:8b', contextWindow: 131_072 },
      { id: 'gpt-4.1-mini', contextWindow: 1_000_000, maxOutput: 32_768, price: { input: 0.4, cacheHit: 0.4, output: 1.6 } },
    ]);
  });

  it('should refuse a repeated id and a maxOutput beyond the window, naming the model', () => {
    expect(() => checkProviderModels([{ id: 'a', contextWindow: 4096 }, { id: 'a', contextWindow: 8192 }])).toThrow(new ProviderModelsError('The model "a" is listed twice; each model id once.'));
    expect(() => checkProviderModels([{ id: 'b', contextWindow: 4096, maxOutput: 8192 }])).toThrow(/"b" has maxOutput 8192 beyond its context window of 4096/);
    expect(() => checkProviderModels(Array.from({ length: 101 }, (_, i) => ({ id: `m${i}`, contextWindow: 4096 })))).toThrow(/at most 100 models/);
  });

  it('should price a model by its own list: free without a price, cache hits at their own rate', () => {
    const usage = { promptTokens: 1_000_000, completionTokens: 500_000, cacheHitTokens: 800_000, cacheMissTokens: 200_000 };
    expect(computeCost(providerModelInfo({ id: 'local', contextWindow: 32_768 }), usage)).toBe(0);
    const priced = providerModelInfo({ id: 'gw', contextWindow: 200_000, price: { input: 3, cacheHit: 0.3, output: 15 } });
    expect(computeCost(priced, usage)).toBeCloseTo(0.8 * 0.3 + 0.2 * 3 + 0.5 * 15, 10);
    // A provider that reports no cache split is billed all-miss at the input price.
    expect(computeCost(priced, { promptTokens: 1_000_000, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0 })).toBeCloseTo(3, 10);
    expect(providerModelInfo({ id: 'gw', contextWindow: 200_000 })).toEqual(expect.objectContaining({ contextWindow: 200_000, maxOutput: 8192, thinking: 'never', known: true }));
    expect(providerModelInfo({ id: 'small', contextWindow: 4096 }).maxOutput).toBe(4096);
  });

  it("should read a server's GET /models with the windows it reports, skipping unusable entries", () => {
    expect(
      parseModelList({
        object: 'list',
        data: [
          { id: 'Qwen/Qwen2.5-Coder-32B-Instruct', max_model_len: 32_768 },
          { id: 'llama3.1:8b' },
          { id: 'openrouter/auto', context_length: 2_000_000 },
          { id: 'bad id with spaces' },
          { id: 42 },
          null,
          { id: 'llama3.1:8b' },
        ],
      }),
    ).toEqual([
      { id: 'llama3.1:8b', contextWindow: null },
      { id: 'openrouter/auto', contextWindow: 2_000_000 },
      { id: 'Qwen/Qwen2.5-Coder-32B-Instruct', contextWindow: 32_768 },
    ]);
    expect(() => parseModelList({ models: [] })).toThrow(/not an OpenAI-style model list/);
    expect(parseModelList({ data: Array.from({ length: 900 }, (_, i) => ({ id: `m${i}` })) })).toHaveLength(500);
  });
});
