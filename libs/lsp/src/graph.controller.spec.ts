import { sanitizeGraphStatus } from './graph.controller';

describe(sanitizeGraphStatus.name, () => {
  it('keeps a well-formed status as it is', () => {
    const s = { state: 'ready', files: 12, symbols: 40, updating: true, builtAt: '2026-12-03T06:30:00.000Z', lastBuildMs: 33, error: null };
    expect(sanitizeGraphStatus(s)).toEqual(s);
  });

  it('turns anything else a sandbox sends into a bounded error status', () => {
    expect(sanitizeGraphStatus({ state: 'exploded', files: -3, symbols: 'many', error: 'x'.repeat(10_000) })).toEqual({
      state: 'error',
      files: 0,
      symbols: 0,
      updating: false,
      builtAt: null,
      lastBuildMs: null,
      error: 'the sandbox sent no graph status',
    });
    expect(sanitizeGraphStatus({ state: 'error', files: 1, symbols: 0, error: 'y'.repeat(900) }).error).toHaveLength(500);
    expect(sanitizeGraphStatus(null).state).toBe('error');
  });
});
