import { assertRemoteHostAllowed, parseGitUrl } from './git-url';

describe(parseGitUrl.name, () => {
  it('should keep https URLs and move a user name out of them', () => {
    expect(parseGitUrl('https://ci-bot@git.example.org/team/app.git')).toEqual({ transport: 'http', url: 'https://git.example.org/team/app.git', host: 'git.example.org', username: 'ci-bot' });
    expect(parseGitUrl(' http://127.0.0.1:8080/app.git ')).toMatchObject({ transport: 'http', host: '127.0.0.1', username: null });
  });

  it('should read ssh URLs in both spellings', () => {
    expect(parseGitUrl('git@git.example.org:team/app.git')).toEqual({ transport: 'ssh', url: 'git@git.example.org:team/app.git', host: 'git.example.org', username: 'git' });
    expect(parseGitUrl('ssh://git@git.example.org:2222/team/app.git')).toMatchObject({ transport: 'ssh', host: 'git.example.org', username: 'git' });
  });

  it.each([
    ['a token in the URL', 'https://git:secret@git.example.org/app.git', /token field/],
    ['ext::', 'ext::sh', /not supported/],
    ['file://', 'file:///etc/passwd', /not supported/],
    ['a local path', '/srv/repos/app.git', /not a URL/],
    ['an option as host', 'ssh://-oProxyCommand=id/app.git', /valid host|not a host/],
    ['no path', 'https://git.example.org/', /no repository path/],
    ['spaces', 'https://git.example.org/a b.git', /spaces/],
    ['a query', 'https://git.example.org/app.git?x=1', /query/],
  ])('should refuse %s', (_what, url, message) => {
    expect(() => parseGitUrl(url)).toThrow(message);
  });
});

describe(assertRemoteHostAllowed.name, () => {
  it.each(['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', '192.168.0.10'])('should refuse %s unless private hosts are allowed', async (host) => {
    await expect(assertRemoteHostAllowed(host, false)).rejects.toThrow(/GIT_REMOTE_ALLOW_PRIVATE_HOSTS/);
    await expect(assertRemoteHostAllowed(host, true)).resolves.toBeUndefined();
  });

  it('should let a public address through', async () => {
    await expect(assertRemoteHostAllowed('93.184.215.14', false)).resolves.toBeUndefined();
  });
});
