import { capUtf8, MemoryOutputStore } from './output.store';

describe(capUtf8.name, () => {
  it('should leave text within the cap alone', () => {
    expect(capUtf8('héllo', 6)).toEqual({ text: 'héllo', truncated: false });
  });

  it('should cut at the cap in UTF-8 bytes without splitting a character', () => {
    // 'é' is two bytes: a cap in its middle stops before it.
    expect(capUtf8('abé', 3)).toEqual({ text: 'ab', truncated: true });
    expect(capUtf8('ab✓c', 5)).toEqual({ text: 'ab✓', truncated: true });
  });
});

describe(MemoryOutputStore.name, () => {
  it('should number outputs, keep them to its per-output cap and say when it cut one', async () => {
    const store = new MemoryOutputStore(10);
    expect(await store.add({ label: 'a', text: 'short' })).toEqual({ id: 1, label: 'a', bytes: 5, truncated: false });
    expect(await store.add({ label: 'b', text: 'x'.repeat(50) })).toEqual({ id: 2, label: 'b', bytes: 10, truncated: true });
    expect(await store.add({ label: 'c', text: 'cut', truncated: true })).toMatchObject({ id: 3, truncated: true });
    expect((await store.get(2))?.text).toBe('x'.repeat(10));
    expect(await store.get(9)).toBeUndefined();
  });

  it('should evict the oldest outputs past its total budget', async () => {
    const store = new MemoryOutputStore(100, 150);
    await store.add({ label: 'old', text: 'o'.repeat(100) });
    await store.add({ label: 'new', text: 'n'.repeat(100) });
    expect(await store.get(1)).toBeUndefined();
    expect((await store.get(2))?.label).toBe('new');
  });
});
