import { BlockList, isIP } from 'node:net';

/** Why the proxy refused a destination; sent back to the sandbox in the `X-H-Egress-Refused` header. */
export type EgressRefusal =
  | 'NETWORK_OFF'
  | 'NOT_ALLOWLISTED'
  | 'LITERAL_IP'
  | 'PORT_NOT_ALLOWED'
  | 'LOOPBACK_ADDRESS'
  | 'LINK_LOCAL_ADDRESS'
  | 'PRIVATE_ADDRESS'
  | 'RESERVED_ADDRESS'
  | 'INTERNAL_DESTINATION'
  | 'DNS_FAILED'
  | 'TOO_MANY_CONNECTIONS'
  | 'BAD_REQUEST'
  | 'CONNECT_FAILED'
  | 'TIMEOUT';

type AddressClass = 'LOOPBACK_ADDRESS' | 'LINK_LOCAL_ADDRESS' | 'PRIVATE_ADDRESS' | 'RESERVED_ADDRESS';

// Node's own BlockList (no dependency) holds the ranges; each range says why it is refused.
// Everything that is not public unicast is refused: the proxy runs on the host, so anything it can
// reach that the internet cannot (the host itself, cloud metadata, the LAN, other containers) is
// exactly what a sandbox must not reach.
const RANGES: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['LOOPBACK_ADDRESS', '127.0.0.0', 8, 'ipv4'],
  ['LOOPBACK_ADDRESS', '::1', 128, 'ipv6'],
  ['LINK_LOCAL_ADDRESS', '169.254.0.0', 16, 'ipv4'], // incl. 169.254.169.254, cloud metadata
  ['LINK_LOCAL_ADDRESS', 'fe80::', 10, 'ipv6'],
  ['PRIVATE_ADDRESS', '10.0.0.0', 8, 'ipv4'],
  ['PRIVATE_ADDRESS', '172.16.0.0', 12, 'ipv4'], // incl. Docker's bridges
  ['PRIVATE_ADDRESS', '192.168.0.0', 16, 'ipv4'],
  ['PRIVATE_ADDRESS', '100.64.0.0', 10, 'ipv4'], // CGNAT
  ['PRIVATE_ADDRESS', 'fc00::', 7, 'ipv6'], // unique local, incl. fd00:ec2::254 (AWS metadata over IPv6)
  ['RESERVED_ADDRESS', '0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 reaches the host
  ['RESERVED_ADDRESS', '192.0.0.0', 24, 'ipv4'],
  ['RESERVED_ADDRESS', '192.0.2.0', 24, 'ipv4'],
  ['RESERVED_ADDRESS', '192.88.99.0', 24, 'ipv4'],
  ['RESERVED_ADDRESS', '198.18.0.0', 15, 'ipv4'],
  ['RESERVED_ADDRESS', '198.51.100.0', 24, 'ipv4'],
  ['RESERVED_ADDRESS', '203.0.113.0', 24, 'ipv4'],
  ['RESERVED_ADDRESS', '224.0.0.0', 4, 'ipv4'], // multicast
  ['RESERVED_ADDRESS', '240.0.0.0', 4, 'ipv4'], // reserved, incl. broadcast
  ['RESERVED_ADDRESS', '::', 128, 'ipv6'], // unspecified
  ['RESERVED_ADDRESS', 'ff00::', 8, 'ipv6'], // multicast
  ['RESERVED_ADDRESS', '64:ff9b::', 96, 'ipv6'], // NAT64 can embed any IPv4 address
  ['RESERVED_ADDRESS', '64:ff9b:1::', 48, 'ipv6'],
  ['RESERVED_ADDRESS', '2002::', 16, 'ipv6'], // 6to4 embeds IPv4
  ['RESERVED_ADDRESS', '2001::', 32, 'ipv6'], // Teredo
  ['RESERVED_ADDRESS', '2001:db8::', 32, 'ipv6'], // documentation
  ['RESERVED_ADDRESS', '100::', 64, 'ipv6'], // discard
];

const lists = new Map<AddressClass, BlockList>();
for (const [cls, net, prefix, family] of RANGES) {
  let list = lists.get(cls);
  if (!list) lists.set(cls, (list = new BlockList()));
  list.addSubnet(net, prefix, family);
}
// Global unicast IPv6 is 2000::/3; anything else (v4-compatible, unassigned) is refused too.
const globalUnicast6 = new BlockList();
globalUnicast6.addSubnet('2000::', 3, 'ipv6');

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * Why an address must not be reached, or null for a public unicast address. IPv4-mapped IPv6
 * (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 */
export function classifyAddress(address: string): AddressClass | null {
  const mapped = MAPPED_V4.exec(address);
  const addr = mapped ? mapped[1] : address;
  const family = isIP(addr);
  if (family === 0) return 'RESERVED_ADDRESS';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of lists) if (list.check(addr, type)) return cls;
  if (type === 'ipv6' && !globalUnicast6.check(addr, 'ipv6')) return 'RESERVED_ADDRESS';
  return null;
}

/** Lower-cased host name without a trailing dot or IPv6 brackets. */
export function normalizeHost(host: string): string {
  return host.trim().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

// RFC 1123 labels; a leading `*.` makes a wildcard entry. No IP literals: the allowlist is of names.
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * True for IP addresses in any spelling the system resolver accepts: dotted, IPv6, and the
 * numeric forms `2130706433`, `0x7f000001`, `127.1` (no top-level domain is numeric).
 */
export function looksLikeIp(host: string): boolean {
  const h = normalizeHost(host);
  if (isIP(h) || isIP(h.replace(/%.*$/, ''))) return true;
  const last = h.split('.').pop() ?? '';
  return /^(\d+|0x[0-9a-f]*)$/i.test(last);
}

/** Whether a string is a valid allowlist entry: `registry.example.org` or `*.gitcdn.example.com`. */
export function isAllowlistEntry(entry: string): boolean {
  const e = normalizeHost(entry);
  const name = e.startsWith('*.') ? e.slice(2) : e;
  return HOST_NAME.test(name) && !looksLikeIp(name) && (e.startsWith('*.') ? name.includes('.') : true);
}

/**
 * Exact names match themselves; `*.example.com` matches every name below example.com (not
 * example.com itself, list that separately).
 */
export function hostMatchesAllowlist(host: string, allowlist: readonly string[]): boolean {
  const h = normalizeHost(host);
  return allowlist.some((raw) => {
    const entry = normalizeHost(raw);
    if (entry.startsWith('*.')) return h.endsWith(entry.slice(1)) && h.length > entry.length - 1;
    return h === entry;
  });
}
