import { graphStatusLabel } from './graph-status-item';

const ready = { state: 'ready' as const, files: 2071, symbols: 20000, updating: false, builtAt: '2026-12-03T06:30:00.000Z', lastBuildMs: 90, error: null };

describe(graphStatusLabel.name, () => {
  it('says building, counts, error or unavailable', () => {
    expect(graphStatusLabel({ ...ready, state: 'building', files: 0, symbols: 0 }, false)).toBe('Graph: building…');
    expect(graphStatusLabel(ready, false)).toBe('Graph: 2,071 files, 20,000 symbols');
    expect(graphStatusLabel({ ...ready, files: 1, symbols: 1 }, false)).toBe('Graph: 1 file, 1 symbol');
    expect(graphStatusLabel({ ...ready, state: 'error', error: 'EACCES' }, false)).toBe('Graph: error');
    expect(graphStatusLabel(null, true)).toBe('Graph: unavailable');
    expect(graphStatusLabel(null, false)).toBe('Graph: …');
  });
});
