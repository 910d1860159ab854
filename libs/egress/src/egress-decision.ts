import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, hostMatchesAllowlist, looksLikeIp, normalizeHost, type EgressRefusal } from './destination-policy';

/** What a workspace may reach: read at every connection, so allowlist changes apply at once. */
export interface EgressPolicy {
  networkEnabled: boolean;
  allowedHosts: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Lookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface DecisionOptions {
  /** Ports a sandbox may reach (default 80 and 443); 'any' only for tests. */
  allowedPorts: readonly number[] | 'any';
  /** H's own services (database, Redis, api): refused by name and by every address they resolve to. */
  internalHosts: readonly { host: string; port?: number }[];
  /**
   * Tests only (refused in production by the config): loopback destinations are allowed so a
   * loopback server can stand in for an allowed host. Internal loopback services stay refused on
   * their port.
   */
  allowLoopbackForTests: boolean;
  lookup: Lookup;
}

export type Decision =
  | { allowed: true; host: string; port: number; address: string; family: number }
  | { allowed: false; host: string; port: number; reason: EgressRefusal; detail: string; address?: string };

const refuse = (host: string, port: number, reason: EgressRefusal, detail: string, address?: string): Decision => ({
  allowed: false,
  host,
  port,
  reason,
  detail,
  address,
});

/**
 * Decides one destination before any packet is sent: policy, literal IPs, port, allowlist, then
 * the name is resolved here (never by the client) and every address it resolves to is checked —
 * a name pointing at 127.0.0.1 or 169.254.169.254 is refused like the address itself. The
 * connection then goes to the checked address, so a second lookup cannot swap it (DNS rebinding).
 */
export async function decideDestination(
  policy: EgressPolicy | null,
  rawHost: string,
  port: number,
  opts: DecisionOptions,
): Promise<Decision> {
  const host = normalizeHost(rawHost);
  if (!policy?.networkEnabled) return refuse(host, port, 'NETWORK_OFF', 'network access is off for this workspace');
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return refuse(host, port, 'BAD_REQUEST', 'give a host name and a port');
  if (looksLikeIp(host)) return refuse(host, port, 'LITERAL_IP', 'IP addresses are refused; use an allowed host name');
  if (opts.allowedPorts !== 'any' && !opts.allowedPorts.includes(port)) {
    return refuse(host, port, 'PORT_NOT_ALLOWED', `only ports ${opts.allowedPorts.join(', ')} are allowed`);
  }
  if (!hostMatchesAllowlist(host, policy.allowedHosts)) {
    return refuse(host, port, 'NOT_ALLOWLISTED', "the host is not on this workspace's allowed hosts (workspace settings)");
  }
  // With the test allowance, H's services on loopback are refused on their own port only, so a
  // loopback test server can stand in for an allowed host; otherwise on every port.
  const onItsPort = (entryPort: number | undefined, loopback: boolean) =>
    !(opts.allowLoopbackForTests && loopback) || entryPort === undefined || entryPort === port;
  if (opts.internalHosts.some((i) => normalizeHost(i.host) === host && onItsPort(i.port, true))) {
    return refuse(host, port, 'INTERNAL_DESTINATION', "H's own services are not reachable");
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await opts.lookup(host);
  } catch (e) {
    return refuse(host, port, 'DNS_FAILED', `the name did not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!addresses.length) return refuse(host, port, 'DNS_FAILED', 'the name resolved to no address');
  const internal = await internalAddresses(opts);
  for (const { address } of addresses) {
    const loopback = classifyAddress(address) === 'LOOPBACK_ADDRESS';
    if (internal.some((i) => i.address === address && onItsPort(i.port, loopback))) {
      return refuse(host, port, 'INTERNAL_DESTINATION', "the name resolves to one of H's own services", address);
    }
    const cls = classifyAddress(address);
    if (cls && !(cls === 'LOOPBACK_ADDRESS' && opts.allowLoopbackForTests)) {
      return refuse(host, port, cls, `the name resolves to ${address}, which is not a public address`, address);
    }
  }
  return { allowed: true, host, port, address: addresses[0].address, family: addresses[0].family };
}

const internalCache = new WeakMap<DecisionOptions, { at: number; list: { address: string; port?: number }[] }>();

/** The addresses of H's own services, re-resolved at most once a minute. */
async function internalAddresses(opts: DecisionOptions): Promise<{ address: string; port?: number }[]> {
  const cached = internalCache.get(opts);
  if (cached && Date.now() - cached.at < 60_000) return cached.list;
  const list: { address: string; port?: number }[] = [];
  for (const { host, port } of opts.internalHosts) {
    const h = normalizeHost(host);
    if (isIP(h)) list.push({ address: h, port });
    else for (const a of await opts.lookup(h).catch(() => [])) list.push({ address: a.address, port });
  }
  internalCache.set(opts, { at: Date.now(), list });
  return list;
}
