import { SESSION_SEARCH_LIMITS } from '@h/contracts';
import { score, SearchDeadline, toTsquery } from './search-query';

describe('toTsquery', () => {
  it('should require every word, the last as a prefix, when the text has words', () => {
    expect(toTsquery('Invoice  rounding')).toBe("'invoice' & 'rounding':*");
    expect(toTsquery('parse_config src/app.ts')).toBe("'parse_config' & 'src/app.ts':*");
  });

  it('should make only the last part of a last word with underscores a prefix, as a phrase', () => {
    expect(toTsquery('fix invoice_total_47')).toBe("'fix' & ('invoice' <-> 'total' <-> '47':*)");
    expect(toTsquery('__init__')).toBe("'init':*");
  });

  it('should treat tsquery operators and quotes as separators, never as syntax', () => {
    expect(toTsquery("a' | b & !c <-> (d:*)")).toBe("'a' & 'b' & 'c' & 'd':*");
    expect(toTsquery("\\' OR 1=1 --")).toBe("'or' & '1':*");
  });

  it('should answer null when there is no word', () => {
    expect(toTsquery('  !&|  ')).toBeNull();
    expect(toTsquery('')).toBeNull();
  });

  it('should count at most the configured number of words, once each', () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(toTsquery(many)?.split(' & ')).toHaveLength(SESSION_SEARCH_LIMITS.queryMaxWords);
    expect(toTsquery('foo foo FOO')).toBe("'foo':*");
    expect(toTsquery('foo bar foo')).toBe("'foo' & 'bar':*");
  });
});

describe('score', () => {
  it('should weigh an older match of the same rank lower', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    expect(score(0.5, new Date(now), now)).toBeCloseTo(0.5);
    expect(score(0.5, new Date(now - 30 * 86_400_000), now)).toBeCloseTo(0.25);
  });
});

describe(SearchDeadline.name, () => {
  it('should be over once its clock passed the end or the signal aborted', () => {
    let t = 1000;
    const controller = new AbortController();
    const d = new SearchDeadline(100, controller.signal, () => t);
    expect(d.over()).toBe(false);
    expect(d.left()).toBe(100);
    t = 1100;
    expect(d.over()).toBe(true);
    const e = new SearchDeadline(100, controller.signal, () => 0);
    controller.abort();
    expect(e.over()).toBe(true);
  });
});
