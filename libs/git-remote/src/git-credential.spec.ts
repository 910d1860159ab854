import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialEnv, privateKeyProblem, sshCommand } from './git-credential';

// An OpenSSH key body: magic, cipher name, rest (only the header is read).
const opensshKey = (cipher: string) => {
  const name = Buffer.from(cipher);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(name.length);
  const body = Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), len, name, Buffer.alloc(40, 1)]).toString('base64');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${body.match(/.{1,70}/g)?.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
};

describe('git credentials', () => {
  it('should accept an unencrypted OpenSSH or PEM key and explain what is wrong with others', () => {
    expect(privateKeyProblem(opensshKey('none'))).toBeNull();
    expect(privateKeyProblem('-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----')).toBeNull();
    expect(privateKeyProblem(opensshKey('aes256-ctr'))).toMatch(/passphrase/);
    expect(privateKeyProblem('-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nMIIE\n-----END RSA PRIVATE KEY-----')).toMatch(/passphrase/);
    expect(privateKeyProblem('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI me@laptop')).toMatch(/not the \.pub file/);
  });

  it('should build an ssh command that uses only the given key, no agent, no config, pinned host keys', () => {
    const cmd = sshCommand('/tmp/h-git-x/deploy-key', "/data/git/ws/it's/known_hosts");
    expect(cmd).toContain("-i '/tmp/h-git-x/deploy-key'");
    for (const opt of ['IdentitiesOnly=yes', 'IdentityAgent=none', 'BatchMode=yes', 'StrictHostKeyChecking=accept-new']) expect(cmd).toContain(`-o ${opt}`);
    expect(cmd).toContain(`-o UserKnownHostsFile='/data/git/ws/it'\\''s/known_hosts'`);
    expect(cmd).toContain('-F /dev/null');
  });

  it('should pass a token as an http.extraHeader in the environment and a key as a 0600 file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'h-cred-spec-'));
    try {
      const env = await credentialEnv({ kind: 'token', username: 'ci', token: 't0ken' }, dir, join(dir, 'kh'));
      expect(env).toEqual({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from('ci:t0ken').toString('base64')}` });
      const ssh = await credentialEnv({ kind: 'ssh_key', privateKey: opensshKey('none') }, dir, join(dir, 'kh'));
      expect(ssh.GIT_SSH_COMMAND).toContain(join(dir, 'deploy-key'));
      expect((await stat(join(dir, 'deploy-key'))).mode & 0o777).toBe(0o600);
      expect(await readFile(join(dir, 'deploy-key'), 'utf8')).toBe(opensshKey('none'));
      expect(await credentialEnv({ kind: 'none' }, dir, join(dir, 'kh'))).toEqual({});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
