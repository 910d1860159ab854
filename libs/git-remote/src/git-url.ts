import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, looksLikeIp, normalizeHost } from '@h/egress';

/** A remote URL as H stores and shows it: never with a password or token in it. */
export interface GitUrl {
  transport: 'http' | 'ssh';
  /** The URL without user info (http) or as given (ssh, whose user name is not a secret). */
  url: string;
  host: string;
  /** The user name an http URL carried (moved out of the URL) or an ssh URL names. */
  username: string | null;
}

export class GitUrlError extends Error {}

const MAX_URL = 2048;
// scp-like ssh: user@host:path (git's own rule: no slash before the first colon).
const SCP_LIKE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):(?!\/\/)([^\s]+)$/;
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Checks a remote URL the user gave and moves any user name out of it. Only https, http and ssh:
 * git's other transports (`ext::`, `file://`, local paths) would run commands or read the host's
 * disk. A password in the URL is refused: it belongs in the token field, which is stored encrypted.
 */
export function parseGitUrl(raw: string): GitUrl {
  const value = raw.trim();
  if (!value || value.length > MAX_URL) throw new GitUrlError(`The git URL must be 1–${MAX_URL} characters.`);
  if (/\s/.test(value) || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new GitUrlError('The git URL must not contain spaces or control characters.');
  const scp = SCP_LIKE.exec(value);
  if (scp) return { transport: 'ssh', url: value, host: checkedHost(scp[2]), username: scp[1] };
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new GitUrlError('The git URL is not a URL: use https://git.example.org/team/repo.git or git@git.example.org:team/repo.git.');
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (!['https', 'http', 'ssh'].includes(scheme)) throw new GitUrlError(`Git URLs with "${scheme}:" are not supported; use https://, http:// or ssh.`);
  if (u.search || u.hash) throw new GitUrlError('The git URL must not have a query or fragment.');
  if (!u.pathname || u.pathname === '/') throw new GitUrlError('The git URL names no repository path.');
  const host = checkedHost(u.hostname);
  if (scheme === 'ssh') {
    if (u.password) throw new GitUrlError('Do not put a password in an ssh URL; use a deploy key.');
    return { transport: 'ssh', url: value, host, username: u.username ? decodeURIComponent(u.username) : null };
  }
  if (u.password) throw new GitUrlError('Do not put a token or password in the URL; give it in the token field (it is stored encrypted).');
  const username = u.username ? decodeURIComponent(u.username) : null;
  u.username = '';
  return { transport: 'http', url: u.toString(), host, username };
}

function checkedHost(raw: string): string {
  const host = normalizeHost(raw);
  if (!host || host.startsWith('-')) throw new GitUrlError('The git URL names no valid host.');
  if (!isIP(host) && !HOST_NAME.test(host) && !looksLikeIp(host)) throw new GitUrlError(`"${host.slice(0, 80)}" is not a host name.`);
  return host;
}

/**
 * Refuses hosts on loopback, link-local (cloud metadata), private and reserved addresses unless
 * GIT_REMOTE_ALLOW_PRIVATE_HOSTS: the host-side clone runs next to H's own services. (The name is
 * resolved again by git; a name that changes its address in between is not caught here.)
 */
export async function assertRemoteHostAllowed(host: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const addresses = isIP(host) ? [host] : await lookup(host, { all: true, verbatim: true }).then((r) => r.map((a) => a.address), () => []);
  if (!addresses.length) return; // git reports the unknown host itself, with the message users know
  const bad = addresses.find((a) => classifyAddress(a));
  if (bad) {
    throw new GitUrlError(`${host} resolves to a private or local address (${bad}); an admin can allow such git hosts with GIT_REMOTE_ALLOW_PRIVATE_HOSTS.`);
  }
}
