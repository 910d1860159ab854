import { addUsage, computeCost, effectiveThinking, emptyUsage, getModelInfo, registerConfiguredModels, registerModel, unknownModelReason } from './model-catalog';

describe('model catalog', () => {
  it('should price a v4-flash cache hit at 1/50 of a miss', () => {
    const price = getModelInfo('deepseek-v4-flash').pricePerMillion;
    expect(price.cacheMiss / price.cacheHit).toBeCloseTo(50, 6);
  });

  it('should compute cost from hit, miss and output tokens', () => {
    const usage = { promptTokens: 1_000_000, completionTokens: 1_000_000, cacheHitTokens: 600_000, cacheMissTokens: 400_000 };
    // 0.6 × 0.0028 + 0.4 × 0.14 + 1 × 0.28
    expect(computeCost('deepseek-v4-flash', usage)).toBeCloseTo(0.00168 + 0.056 + 0.28, 9);
    expect(computeCost('deepseek-v4-pro', usage)).toBeCloseTo(0.6 * 0.003625 + 0.4 * 0.435 + 0.87, 9);
  });

  it('should bill a usage without a cache split as all cache misses', () => {
    const usage = { promptTokens: 1_000_000, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0 };
    expect(computeCost('deepseek-v4-flash', usage)).toBeCloseTo(0.14, 9);
  });

  it('should give an unknown model the 128k default window, flagged as not known', () => {
    const info = getModelInfo('scripted:fix-failing-test');
    expect(info).toMatchObject({ known: false, contextWindow: 128_000 });
    expect(getModelInfo('deepseek-v4-pro')).toMatchObject({ known: true, contextWindow: 1_000_000, maxOutput: 384_000 });
    expect(getModelInfo('deepseek-chat').contextWindow).toBe(128_000);
  });

  it('should fix thinking for the legacy names and let v4 models toggle it', () => {
    expect(effectiveThinking('deepseek-reasoner', false)).toBe(true);
    expect(effectiveThinking('deepseek-chat', true)).toBe(false);
    expect(effectiveThinking('deepseek-v4-flash', false)).toBe(false);
    expect(effectiveThinking('deepseek-v4-flash', undefined)).toBe(true);
  });

  it('should add usages field by field', () => {
    const one = { promptTokens: 10, completionTokens: 2, cacheHitTokens: 6, cacheMissTokens: 4, reasoningTokens: 1 };
    expect(addUsage(addUsage(emptyUsage(), one), one)).toEqual({
      promptTokens: 20, completionTokens: 4, cacheHitTokens: 12, cacheMissTokens: 8, reasoningTokens: 2,
    });
  });

  it('should price a registered custom model', () => {
    registerModel({
      id: 'custom-coder', contextWindow: 64_000, maxOutput: 4_000,
      pricePerMillion: { cacheHit: 0.1, cacheMiss: 1, output: 2 }, thinking: 'never', defaultThinking: false,
    });
    expect(getModelInfo('custom-coder')).toMatchObject({ known: true, contextWindow: 64_000 });
    expect(computeCost('custom-coder', { promptTokens: 1_000_000, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 1_000_000 })).toBeCloseTo(1, 9);
  });

  it('should name the known models for an unknown id, and know a configured one with its window and price', () => {
    expect(unknownModelReason('deepseek-v4-flash')).toBeNull();
    expect(unknownModelReason('gpt-imaginary')).toMatch(/^Unknown model "gpt-imaginary"\. Known models: deepseek-v4-flash, deepseek-v4-pro, .*MODEL_CATALOG/);
    registerConfiguredModels([{ id: 'house-32k', contextWindow: 32_000, price: { cacheHit: 0, cacheMiss: 0.5, output: 1 } }]);
    expect(unknownModelReason('house-32k')).toBeNull();
    expect(getModelInfo('house-32k')).toMatchObject({ known: true, contextWindow: 32_000, maxOutput: 8_192 });
    expect(computeCost('house-32k', { promptTokens: 2_000_000, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 2_000_000 })).toBeCloseTo(1, 9);
  });
});
