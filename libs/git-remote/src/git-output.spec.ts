import { describeGitFailure, lineSplitter, progressMessage, scrub } from './git-output';

describe('git output', () => {
  it('should turn clone progress into status messages', () => {
    expect(progressMessage('Receiving objects:  45% (450/1000), 1.20 MiB | 2.00 MiB/s')).toBe('Cloning… 45% (receiving objects)');
    expect(progressMessage('remote: Compressing objects: 100% (3/3), done.')).toBe('Cloning… 100% (compressing on the server)');
    expect(progressMessage('Resolving deltas:  30% (3/10)')).toBe('Cloning… 30% (resolving deltas)');
    expect(progressMessage('Updating files:  50% (5/10)')).toBe('Cloning… 50% (checking out files)');
    expect(progressMessage("Cloning into '/tmp/x'...")).toBeNull();
  });

  it('should split progress lines rewritten with carriage returns', () => {
    const lines: string[] = [];
    const split = lineSplitter((l) => lines.push(l));
    split('Receiving objects:  1% (1/100)\rReceiving objects:  50%');
    split(' (50/100)\rReceiving objects: 100% (100/100), done.\n');
    expect(lines).toEqual(['Receiving objects:  1% (1/100)', 'Receiving objects:  50% (50/100)', 'Receiving objects: 100% (100/100), done.']);
  });

  it('should remove credentials from anything shown', () => {
    expect(scrub("fatal: unable to access 'https://ci:s3cret@git.example.org/a.git/': 403")).toBe("fatal: unable to access 'https://git.example.org/a.git/': 403");
    expect(scrub('Authorization: Basic Y2k6czNjcmV0')).toBe('Authorization: Basic ***');
    expect(scrub('x -----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY----- y')).toBe('x [private key] y');
  });

  it.each([
    ["fatal: could not read Username for 'https://git.example.org': terminal prompts disabled", false, 'auth', /check the token/],
    ['git@git.example.org: Permission denied (publickey).', true, 'auth', /check the deploy key/],
    ["fatal: unable to access 'https://nope.example.org/a.git/': Could not resolve host: nope.example.org", false, 'host', /not found; check the URL/],
    ['fatal: Remote branch dev not found in upstream origin', false, 'branch', /branch "dev" was not found/],
    ["remote: Repository not found.\nfatal: repository 'https://git.example.org/a.git/' not found", false, 'repository', /No git repository/],
  ])('should explain %j', (stderr, ssh, kind, message) => {
    const failure = describeGitFailure(stderr, { host: 'git.example.org', branch: 'dev', ssh });
    expect(failure.kind).toBe(kind);
    expect(failure.message).toMatch(message);
  });

  it('should say what to do on a timeout, and never echo a credential in an unknown failure', () => {
    expect(describeGitFailure('', { host: 'h', ssh: false, timedOut: true, timeoutSeconds: 600 }).message).toMatch(/GIT_REMOTE_TIMEOUT_SECONDS/);
    expect(describeGitFailure("fatal: weird 'https://u:pw@h/x'", { host: 'h', ssh: false }).message).not.toContain('pw');
  });
});
