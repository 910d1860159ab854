import { parsePorcelainZ } from './run-diagnostics';

describe('parsePorcelainZ', () => {
  it('reads modified, untracked and renamed paths (the new name), skipping the old one', () => {
    expect(parsePorcelainZ(' M src/a.ts\0?? app/new file.py\0R  src/b.ts\0src/old.ts\0 D gone.ts\0')).toEqual(['src/a.ts', 'app/new file.py', 'src/b.ts', 'gone.ts']);
    expect(parsePorcelainZ('')).toEqual([]);
  });
});
