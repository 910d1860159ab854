import { InputRateLimit } from './input-rate-limit';

describe(InputRateLimit.name, () => {
  it('should allow a burst and then refuse until time refills the bucket', () => {
    const limit = new InputRateLimit(10, 3, 0);
    expect([limit.take(0), limit.take(0), limit.take(0), limit.take(0)]).toEqual([true, true, true, false]);
    expect(limit.take(50)).toBe(false);
    expect(limit.take(100)).toBe(true);
  });

  it('should never hold more than the burst however long it was idle', () => {
    const limit = new InputRateLimit(10, 2, 0);
    expect([limit.take(60_000), limit.take(60_000), limit.take(60_000)]).toEqual([true, true, false]);
  });
});
