import { assertResolvedHostAllowed, checkProviderBaseUrl, isApprovedInternalHost, ProviderUrlError } from './provider-url';

const refused = (raw: string, allowed: string[] = []): string => {
  try {
    checkProviderBaseUrl(raw, allowed);
  } catch (err) {
    if (err instanceof ProviderUrlError) return err.message;
    throw err;
  }
  throw new Error(`expected ${raw} to be refused`);
};

describe('provider base URLs', () => {
  it('should accept https to a public host and drop a trailing slash', () => {
    expect(checkProviderBaseUrl(' https://llm.example.org/v1/ ', [])).toBe('https://llm.example.org/v1');
    expect(checkProviderBaseUrl('https://openrouter.ai/api/v1', [])).toBe('https://openrouter.ai/api/v1');
    expect(checkProviderBaseUrl('https://8.8.8.8:8443/v1', [])).toBe('https://8.8.8.8:8443/v1');
  });

  it('should refuse plain http unless the instance approves the host, naming the setting', () => {
    expect(refused('http://llm.example.org/v1')).toMatch(/Plain http is refused for llm\.example\.org: use https, or .*PROVIDER_ALLOWED_INTERNAL_HOSTS/);
    expect(checkProviderBaseUrl('http://llm.example.org/v1', ['llm.example.org'])).toBe('http://llm.example.org/v1');
    expect(checkProviderBaseUrl('http://gpu1.lab.example/v1', ['*.lab.example'])).toBe('http://gpu1.lab.example/v1');
  });

  it('should refuse loopback, private, link-local and reserved addresses unless approved', () => {
    expect(refused('https://127.0.0.1:8000/v1')).toMatch(/127\.0\.0\.1 is on a loopback address .*PROVIDER_ALLOWED_INTERNAL_HOSTS/);
    expect(refused('https://10.1.2.3/v1')).toMatch(/private address/);
    expect(refused('https://169.254.169.254/latest')).toMatch(/link-local address/);
    expect(refused('https://[::1]:8000/v1')).toMatch(/loopback/);
    expect(refused('https://[::ffff:192.168.0.1]/v1')).toMatch(/private/);
    expect(refused('https://0.0.0.0/v1')).toMatch(/reserved/);
    // The URL parser reads numeric hosts as the address they spell.
    expect(refused('https://2130706433/v1')).toMatch(/127\.0\.0\.1 is on a loopback address/);
    expect(refused('https://0x7f.1/v1')).toMatch(/loopback/);
    expect(checkProviderBaseUrl('http://127.0.0.1:11434/v1', ['127.0.0.1'])).toBe('http://127.0.0.1:11434/v1');
    expect(checkProviderBaseUrl('http://[::1]:11434/v1', ['0:0::1'])).toBe('http://[::1]:11434/v1');
  });

  it('should refuse user info, other schemes, queries, fragments and junk', () => {
    expect(refused('https://user:sk-secret@llm.example.org/v1')).toMatch(/must not carry a user name or password/);
    expect(refused('https://token@llm.example.org/v1')).toMatch(/must not carry a user name/);
    expect(refused('ftp://llm.example.org/v1')).toMatch(/"ftp:" are not supported/);
    expect(refused('file:///etc/passwd')).toMatch(/not supported/);
    expect(refused('https://llm.example.org/v1?key=x')).toMatch(/query or fragment/);
    expect(refused('https://llm.example.org/v1#x')).toMatch(/query or fragment/);
    expect(refused('llm.example.org/v1')).toMatch(/not a URL/);
    expect(refused('https://llm .example.org')).toMatch(/spaces or control characters/);
    expect(refused('')).toMatch(/1–2048 characters/);
    expect(refused(`https://a.example/${'x'.repeat(2048)}`)).toMatch(/1–2048 characters/);
  });

  it('should match approved hosts exactly or below a wildcard, case-insensitively', () => {
    expect(isApprovedInternalHost('Ollama.Internal', ['ollama.internal'])).toBe(true);
    expect(isApprovedInternalHost('evil-ollama.internal', ['ollama.internal'])).toBe(false);
    expect(isApprovedInternalHost('a.b.corp.example', ['*.corp.example'])).toBe(true);
    expect(isApprovedInternalHost('corp.example', ['*.corp.example'])).toBe(false);
    expect(isApprovedInternalHost('127.0.0.2', ['127.0.0.1'])).toBe(false);
  });

  it('should refuse a name that resolves to an internal address when saved, unless the name is approved', async () => {
    await expect(assertResolvedHostAllowed('https://localhost:8000/v1', [])).rejects.toThrow(/localhost is on a loopback address/);
    await expect(assertResolvedHostAllowed('https://localhost:8000/v1', ['localhost'])).resolves.toBeUndefined();
    // A name that does not resolve (yet) is left to the check at each request.
    await expect(assertResolvedHostAllowed('https://no-such-host.invalid/v1', [])).resolves.toBeUndefined();
  });
});
