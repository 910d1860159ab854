import { filterLines } from './line-filter';
import { compileUserPattern } from './user-pattern';

describe(filterLines.name, () => {
  it('should return the indexes of the matching lines when the scan completes', async () => {
    const result = await filterLines(['ok', 'ERROR one', 'fine', 'error two'], compileUserPattern('error', { ignoreCase: true }));
    expect(result).toEqual({ matches: [1, 3], scanned: 4, complete: true });
  });

  it('should stop at the budget with a partial answer', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const result = await filterLines(lines, compileUserPattern('line'), 0);
    expect(result).toEqual({ matches: [], scanned: 0, complete: false });
  });

  it('should let other work on the event loop run while it scans', async () => {
    // ~1 MB of lines that take RE2 a while each: the scan must yield, so the timer fires before it ends.
    const lines = Array.from({ length: 4000 }, () => `${'ab'.repeat(499)}x`);
    const pattern = compileUserPattern('(?:[ab]*a[ab]{30}){10}[^ab]');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const result = await filterLines(lines, pattern, 5000);
    clearInterval(timer);
    expect(result.scanned).toBeGreaterThan(0);
    expect(ticks).toBeGreaterThan(0);
  });
});
