import type { ModelProvider } from './model-provider';
import { ProviderCache } from './provider-cache';

const fake = (id: string): ModelProvider => ({
  id,
  stream: async function* () {
    yield* [];
  },
});

describe(ProviderCache.name, () => {
  it('should make one provider per key and hand the same one back for that key', () => {
    const cache = new ProviderCache();
    const make = jest.fn(() => fake('a'));
    const first = cache.get('sk-one', make);
    expect(cache.get('sk-one', make)).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
    expect(cache.get('sk-two', () => fake('b'))).not.toBe(first);
  });

  it('should keep at most max providers, dropping the least recently used', () => {
    const cache = new ProviderCache(2);
    const a = cache.get('a', () => fake('a'));
    cache.get('b', () => fake('b'));
    cache.get('a', () => fake('a2')); // a is now the most recent
    cache.get('c', () => fake('c')); // b goes
    expect(cache.size).toBe(2);
    expect(cache.get('a', () => fake('a3'))).toBe(a);
    expect(cache.get('b', () => fake('b2')).id).toBe('b2');
  });
});
