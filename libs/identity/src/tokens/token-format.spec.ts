import { newApiToken, parseApiToken } from './token-format';

describe('api token format', () => {
  it('should mint distinct h_<prefix>_<secret> tokens whose prefix parses back', () => {
    const a = newApiToken();
    const b = newApiToken();
    expect(a.token).toMatch(/^h_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiToken(a.token)).toEqual({ prefix: a.prefix });
    expect(a.prefix).not.toBe(b.prefix);
    expect(a.token).not.toBe(b.token);
  });

  it.each([
    ['empty', ''],
    ['a session cookie value', 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg'],
    ['a short secret', 'h_ABCDEFGHIJKL_short'],
    ['a prefix with a symbol', `h_ABCDEFGHIJ-L_${'a'.repeat(43)}`],
    ['trailing text', `h_ABCDEFGHIJKL_${'a'.repeat(43)} x`],
  ])('should not parse %s', (_what, value) => {
    expect(parseApiToken(value)).toBeNull();
  });
});
