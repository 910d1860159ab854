import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What host-side git authenticates with; built from the decrypted secret just before git runs. */
export type GitCredential =
  | { kind: 'none' }
  | { kind: 'token'; username: string; token: string }
  | { kind: 'ssh_key'; privateKey: string };

/** The user name sent with a token when none is given (hosts read only the password part). */
export const DEFAULT_TOKEN_USERNAME = 'git';

const PEM = /^-----BEGIN ((?:OPENSSH|RSA|EC|DSA) )?PRIVATE KEY-----\r?\n([A-Za-z0-9+/=:, \r\n-]+?)\r?\n-----END \1?PRIVATE KEY-----\s*$/;

/**
 * Why a pasted deploy key cannot be used, or null: it must be an OpenSSH or PEM private key
 * without a passphrase (nobody is there to type it when H fetches).
 */
export function privateKeyProblem(key: string): string | null {
  const m = PEM.exec(key.trim() + '\n');
  if (!m) return 'The deploy key must be a private key in OpenSSH or PEM form ("-----BEGIN OPENSSH PRIVATE KEY-----" …); paste the whole private key, not the .pub file.';
  if (/Proc-Type: 4,ENCRYPTED/.test(m[2])) return 'The deploy key is protected by a passphrase; make one without (ssh-keygen -p -N "").';
  if (m[1] === 'OPENSSH ') {
    const body = Buffer.from(m[2].replace(/\s+/g, ''), 'base64');
    const magic = 'openssh-key-v1\0';
    if (body.subarray(0, magic.length).toString('latin1') !== magic) return 'The deploy key is not a valid OpenSSH private key.';
    const len = body.readUInt32BE(magic.length);
    const cipher = body.subarray(magic.length + 4, magic.length + 4 + len).toString('latin1');
    if (cipher !== 'none') return 'The deploy key is protected by a passphrase; make one without (ssh-keygen -p -N "").';
  }
  return null;
}

/** The ssh command git runs: only this key, no agent, no config file, host keys pinned per workspace. */
export function sshCommand(keyFile: string, knownHostsFile: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    'ssh',
    `-i ${q(keyFile)}`,
    '-o IdentitiesOnly=yes',
    '-o IdentityAgent=none',
    '-o BatchMode=yes',
    '-o StrictHostKeyChecking=accept-new',
    `-o UserKnownHostsFile=${q(knownHostsFile)}`,
    '-F /dev/null',
  ].join(' ');
}

/**
 * The environment that gives git the credential: a token as an `http.extraHeader` through
 * GIT_CONFIG_* variables (never on a command line, never in a config file), a key as a 0600 file in
 * `tmpDir` (the caller removes the directory).
 */
export async function credentialEnv(credential: GitCredential, tmpDir: string, knownHostsFile: string): Promise<Record<string, string>> {
  if (credential.kind === 'token') {
    const basic = Buffer.from(`${credential.username}:${credential.token}`).toString('base64');
    return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` };
  }
  if (credential.kind === 'ssh_key') {
    const keyFile = join(tmpDir, 'deploy-key');
    await writeFile(keyFile, credential.privateKey.trim() + '\n', { mode: 0o600 });
    await chmod(keyFile, 0o600);
    return { GIT_SSH_COMMAND: sshCommand(keyFile, knownHostsFile) };
  }
  return {};
}
