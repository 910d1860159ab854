import { MAX_MATCH_LINE_CHARS, MAX_PATTERN_CHARS } from './pattern-limits';
import { capForMatch, compileLinear, compileUserPattern, PatternError } from './user-pattern';

const MEGABYTE_OF_LINES = Array.from({ length: 16_000 }, () => `${'a'.repeat(60)}!`);

describe(compileUserPattern.name, () => {
  it('should match like a regex for ordinary patterns, with ignoreCase and fixedString', () => {
    expect(compileUserPattern('err(or)?|fail').test('Build FAILED')).toBe(false);
    expect(compileUserPattern('err(or)?|fail', { ignoreCase: true }).test('Build FAILED')).toBe(true);
    expect(compileUserPattern('\\d+ passed').search('tests: 12 passed')).toBe(7);
    expect(compileUserPattern('a.b', { fixedString: true }).test('axb')).toBe(false);
    expect(compileUserPattern('a.b', { fixedString: true }).test('a.b')).toBe(true);
    expect(compileUserPattern('(?<word>\\w+)\\s=').test('x = 1')).toBe(true);
    expect(compileUserPattern('\\u00e9t\\u{e9}').test('été')).toBe(true);
  });

  it('should answer within a second when the pattern is catastrophic for a backtracking engine', () => {
    for (const source of ['(a+)+$', '(x+x+)+y', '(a|a)*c', '(.*a){12}!x']) {
      const re = compileUserPattern(source);
      const started = Date.now();
      const matched = MEGABYTE_OF_LINES.filter((l) => re.test(l)).length;
      const oneLine = re.test('a'.repeat(1_000_000));
      expect({ source, matched, oneLine, fast: Date.now() - started < 1000 }).toEqual({
        source,
        matched: 0,
        oneLine: source === '(a+)+$',
        fast: true,
      });
    }
  });

  it.each([
    ['(a)\\1', 'a backreference (\\1)'],
    ['(?<q>x)\\k<q>', 'a named backreference'],
    ['foo(?=bar)', 'lookahead (?=…)'],
    ['foo(?!bar)', 'negative lookahead'],
    ['(?<=\\$)\\d+', 'lookbehind (?<=…)'],
    ['(?<!x)y', 'negative lookbehind'],
    ['(?>a+)b', 'an atomic group'],
  ])('should refuse %s naming what is not supported and what to do', (source, what) => {
    expect(() => compileUserPattern(source)).toThrow(PatternError);
    expect(() => compileUserPattern(source)).toThrow(`the pattern uses ${what}`);
    expect(() => compileUserPattern(source)).toThrow(/not supported \(RE2 syntax.*\); /);
  });

  it('should accept what only looks like those inside a class or escaped', () => {
    expect(compileUserPattern('\\(\\?=').test('(?=')).toBe(true);
    expect(compileUserPattern('[(?=]+').test('?')).toBe(true);
    expect(compileUserPattern('[]a]').test(']')).toBe(true);
  });

  it('should explain syntax errors, possessive quantifiers, and patterns too long or too complex', () => {
    expect(() => compileUserPattern('[')).toThrow(/^invalid pattern: missing closing \]/);
    expect(() => compileUserPattern('a++')).toThrow('possessive quantifier (++)');
    expect(() => compileUserPattern('x'.repeat(MAX_PATTERN_CHARS + 1))).toThrow(`at most ${MAX_PATTERN_CHARS}`);
    expect(() => compileUserPattern('[ab]{1,999}[cd]{1,999}')).toThrow(/too complex \(\d+ steps once compiled; at most 1000\)/);
  });

  it('should only look at the first MAX_MATCH_LINE_CHARS characters of a line', () => {
    const line = `${'.'.repeat(MAX_MATCH_LINE_CHARS)}needle`;
    expect(capForMatch(line)).toHaveLength(MAX_MATCH_LINE_CHARS);
    expect(compileUserPattern('needle').test(line)).toBe(false);
    expect(compileUserPattern('needle').test(line.slice(10))).toBe(true);
  });
});

describe(compileLinear.name, () => {
  it('should run a generated glob pattern in linear time on a long path', () => {
    const glob = compileLinear(`^${'[^/]*a'.repeat(20)}[^/]*b$`, { ignoreCase: true });
    const started = Date.now();
    expect(glob.test('A'.repeat(900))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
