import { findInputProblem, INPUT_LIMITS, jsonTooDeep, parseQueryInteger, queryStringProblem, stringProblem } from './input-policy';

const nested = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('input policy', () => {
  describe(stringProblem.name, () => {
    it('should refuse NUL and lone surrogates but accept any well-formed text', () => {
      expect(stringProblem('a\u0000b')).toMatch(/NUL/);
      expect(stringProblem('\ud800')).toMatch(/lone surrogate/);
      expect(stringProblem('x\udfffy')).toMatch(/lone surrogate/);
      expect(stringProblem('\ud83d\ude00 emoji, ünïcödé, \ufffd, tab\t')).toBeNull();
    });
  });

  describe(findInputProblem.name, () => {
    it('should name the path of the first bad value', () => {
      expect(findInputProblem({ a: [1, { b: 'x\u0000' }] }, 'body')).toBe('body.a[1].b must not contain NUL characters (\\u0000)');
      expect(findInputProblem({ ['k\u0000']: 1 }, 'body')).toMatch(/property name in body must not contain NUL/);
      expect(findInputProblem({ ok: 'fine', n: 12, f: 1.5, t: true, z: null }, 'body')).toBeNull();
    });

    it('should refuse numbers that are not finite, beyond the safe integer range, or -0', () => {
      for (const n of [Infinity, -Infinity, NaN, 1e20, 9007199254740992, -0]) expect(findInputProblem({ n }, 'body')).toMatch(/^body\.n /);
      expect(findInputProblem({ n: Number.MAX_SAFE_INTEGER }, 'body')).toBeNull();
    });

    it('should refuse prototype keys at any depth', () => {
      expect(findInputProblem(JSON.parse('{"a":{"__proto__":{"x":1}}}'), 'body')).toBe('property a.__proto__ should not exist');
      expect(findInputProblem({ constructor: 1 }, 'body')).toBe('property constructor should not exist');
    });

    it(`should accept ${INPUT_LIMITS.maxDepth} levels and refuse one more, without recursion`, () => {
      expect(findInputProblem(nested(INPUT_LIMITS.maxDepth), 'body')).toBeNull();
      expect(findInputProblem(nested(INPUT_LIMITS.maxDepth + 1), 'body')).toMatch(/nested deeper than 32 levels/);
      // Far deeper than the stack would allow a recursive walk to go.
      expect(findInputProblem(JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)), 'body')).toMatch(/nested deeper/);
    });
  });

  describe(jsonTooDeep.name, () => {
    it('should count only brackets outside strings, escapes included', () => {
      const at = (n: number) => Buffer.from('['.repeat(n) + ']'.repeat(n));
      expect(jsonTooDeep(at(INPUT_LIMITS.maxDepth))).toBe(false);
      expect(jsonTooDeep(at(INPUT_LIMITS.maxDepth + 1))).toBe(true);
      expect(jsonTooDeep(Buffer.from(JSON.stringify({ s: '['.repeat(1000) + '\\"[[[' })))).toBe(false);
      expect(jsonTooDeep(Buffer.from(`{"s":"\\\\"${'['.repeat(40)}`))).toBe(true);
    });
  });

  describe(parseQueryInteger.name, () => {
    it('should accept plain decimal integers within the Postgres integer range only', () => {
      for (const ok of ['0', '7', '-3', '2147483647', '-2147483648']) expect(parseQueryInteger(ok)).toBe(Number(ok));
      for (const bad of ['', '-0', '01', '+1', ' 1', '1 ', '1.5', '1e3', '0x10', 'Infinity', 'NaN', '2147483648', '99999999999999999999', ['1'], undefined]) {
        expect(parseQueryInteger(bad)).toBeNull();
      }
    });
  });
});

describe('queryStringProblem', () => {
  it('should refuse query strings that do not decode as percent-encoded UTF-8', () => {
    expect(queryStringProblem('/api/x?path=src%2Fa.ts&limit=3')).toBeNull();
    expect(queryStringProblem('/api/x')).toBeNull();
    expect(queryStringProblem('/api/x?path=a+b%20c')).toBeNull();
    expect(queryStringProblem('/api/x?path=%')).not.toBeNull();
    expect(queryStringProblem('/api/x?path=%FF')).not.toBeNull();
    expect(queryStringProblem('/api/x?path=%ED%A0%80')).not.toBeNull();
    expect(queryStringProblem('/api/x?a=1&path=%zz')).not.toBeNull();
  });
});
