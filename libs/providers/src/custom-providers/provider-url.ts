import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CUSTOM_PROVIDER_URL_MAX_LENGTH } from '@h/contracts';
import { classifyAddress, hostMatchesAllowlist, normalizeHost } from '@h/egress';

// The one place a team provider's base URL is judged: when it is saved (shape, and the addresses
// its name has then) and at every request (guarded-fetch.ts: the addresses actually connected to,
// so a name that later resolves to H's own network is caught). https to public addresses is
// always fine; plain http and loopback / private / link-local addresses only for hosts the
// instance lists in PROVIDER_ALLOWED_INTERNAL_HOSTS.

export class ProviderUrlError extends Error {}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const ALLOW_SETTING = 'PROVIDER_ALLOWED_INTERNAL_HOSTS';

/** Whether the instance approved `host` as an internal provider host (exact name or IP, or `*.domain`). */
export function isApprovedInternalHost(host: string, allowed: readonly string[]): boolean {
  const h = normalizeHost(host);
  return allowed.some((entry) => {
    const e = normalizeHost(entry);
    if (e.startsWith('*.')) return hostMatchesAllowlist(h, [e]);
    return h === e || (isIP(h) === 6 && isIP(e) === 6 && sameIpv6(h, e));
  });
}

/**
 * Checks a base URL a team admin gave and returns it normalised (no trailing slash). Refuses other
 * schemes, user info (the key has its own, encrypted field), queries and fragments, plain http and
 * literal internal addresses unless the host is approved.
 */
export function checkProviderBaseUrl(raw: string, allowed: readonly string[]): string {
  const value = raw.trim();
  if (!value || value.length > CUSTOM_PROVIDER_URL_MAX_LENGTH) throw new ProviderUrlError(`The base URL must be 1–${CUSTOM_PROVIDER_URL_MAX_LENGTH} characters.`);
  if ([...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) throw new ProviderUrlError('The base URL must not contain spaces or control characters.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProviderUrlError('The base URL is not a URL: use e.g. https://llm.example.org/v1.');
  }
  checkUrlShape(url, allowed);
  return url.toString().replace(/\/+$/, '');
}

/** The rules of checkProviderBaseUrl for a parsed URL (the guarded fetch applies them to every request). */
export function checkUrlShape(url: URL, allowed: readonly string[]): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProviderUrlError(`Base URLs with "${url.protocol}" are not supported; use https://.`);
  if (url.username || url.password) throw new ProviderUrlError('The base URL must not carry a user name or password; give the key in the API key field (it is stored encrypted).');
  if (url.search || url.hash) throw new ProviderUrlError('The base URL must not have a query or fragment.');
  const host = normalizeHost(url.hostname);
  if (!host || (!isIP(host) && !HOST_NAME.test(host))) throw new ProviderUrlError('The base URL names no valid host.');
  const approved = isApprovedInternalHost(host, allowed);
  if (url.protocol === 'http:' && !approved) {
    throw new ProviderUrlError(`Plain http is refused for ${host}: use https, or an admin of this H instance adds the host to ${ALLOW_SETTING}.`);
  }
  if (isIP(host) && !approved) assertPublicAddress(host, host);
}

/** Refuses an address on loopback, link-local, private or reserved ranges (the message names the setting). */
export function assertPublicAddress(host: string, address: string): void {
  const why = classifyAddress(address);
  if (!why) return;
  const kind = why.replace(/_ADDRESS$/, '').toLowerCase().replace('_', '-');
  throw new ProviderUrlError(
    `${host} is on a ${kind} address (${address}); an admin of this H instance can allow it for providers with ${ALLOW_SETTING}.`,
  );
}

/**
 * Resolves a saved URL's host now and refuses internal addresses of an unapproved host, so an
 * admin learns at once (the guarded fetch checks again at each request). A name that does not
 * resolve is accepted: the server may be down or the DNS local to the worker.
 */
export async function assertResolvedHostAllowed(baseUrl: string, allowed: readonly string[]): Promise<void> {
  const host = normalizeHost(new URL(baseUrl).hostname);
  if (isIP(host) || isApprovedInternalHost(host, allowed)) return;
  const addresses = await lookup(host, { all: true, verbatim: true }).then((r) => r.map((a) => a.address), () => [] as string[]);
  for (const address of addresses) assertPublicAddress(host, address);
}

function sameIpv6(a: string, b: string): boolean {
  const expand = (ip: string): string => {
    const [head, tail = ''] = ip.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const fill = ip.includes('::') ? new Array(8 - h.length - t.length).fill('0') : [];
    return [...h, ...fill, ...t].map((p) => p.replace(/^0+(?=.)/, '')).join(':');
  };
  return expand(a) === expand(b);
}
