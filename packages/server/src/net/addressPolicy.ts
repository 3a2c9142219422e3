import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may reach when a person gave it the URL (an app's listener, and any later
 * request of that kind): only public unicast ones, unless an administrator allowed the host. Everything
 * here works on addresses as the resolver or WHATWG `URL` writes them; odd spellings (`0x7f.1`,
 * `2130706433`) never get this far, because `URL` has rewritten them as dotted quads by then.
 */

/** Why an address is not public; the words appear in the errors people see. */
export type InternalKind =
  | 'unspecified'
  | 'this network'
  | 'loopback'
  | 'private'
  | 'shared (carrier-grade NAT)'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'local-use NAT64'
  | 'reserved';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

const ranges = (list: Array<[string, InternalKind]>): Array<[Range, InternalKind]> => list.map(([cidr, kind]) => [ipaddr.parseCIDR(cidr), kind]);

/** The IPv4 special-purpose blocks that are not reachable on the public internet. First match wins. */
const internalV4 = ranges([
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared (carrier-grade NAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
]);

/** IPv6 blocks refused whole. Anything else outside global unicast (2000::/3) is refused as reserved. */
const internalV6 = ranges([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['fe80::/10', 'link-local'],
  ['fc00::/7', 'unique-local'],
  ['ff00::/8', 'multicast'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  // IETF protocol assignments: Teredo, ORCHID and the like; nothing a listener lives at.
  ['2001::/23', 'reserved'],
]);

const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');
/** IPv6 prefixes whose last 32 bits are an IPv4 address that a connection actually reaches. */
const embeddingV4InLowBits = [ipaddr.parseCIDR('::ffff:0:0/96'), ipaddr.parseCIDR('64:ff9b::/96')];
const sixToFour = ipaddr.parseCIDR('2002::/16');

/** Why `address` (an IP address as `net.isIP` accepts it) is internal; undefined when it is public. */
export function internalKindOf(address: string): InternalKind | undefined {
  return kindOf(ipaddr.parse(address));
}

function kindOf(address: Address): InternalKind | undefined {
  if (address.kind() === 'ipv4') return internalV4.find(([range]) => address.match(range))?.[1];
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedV4(v6);
  if (embedded) return kindOf(embedded);
  const kind = internalV6.find(([range]) => v6.match(range))?.[1];
  if (kind) return kind;
  return v6.match(globalUnicastV6) ? undefined : 'reserved';
}

/** The IPv4 address an IPv4-mapped, NAT64 (well-known prefix) or 6to4 address stands for. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (embeddingV4InLowBits.some((range) => address.match(range))) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (address.match(sixToFour)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/** An IPv4-mapped IPv6 address as the IPv4 address it is, so that `127.0.0.0/8` also matches `::ffff:127.0.0.1`. */
function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/**
 * The hosts an administrator exempted (`AVIARY_ALLOWED_INTERNAL_HOSTS`): a host name matches the URL's
 * host name, case-insensitively; an IP address or CIDR range matches the address the name resolved to.
 */
export class InternalHostsAllowList {
  private constructor(
    readonly entries: readonly string[],
    private readonly names: ReadonlySet<string>,
    private readonly ranges: readonly Range[],
  ) {}

  /** Throws a sentence naming the entry when one is neither a host name, an IP address nor a CIDR range. */
  static parse(entries: readonly string[]): InternalHostsAllowList {
    const names = new Set<string>();
    const addressRanges: Range[] = [];
    for (const entry of entries) {
      const name = hostName(entry);
      if (name) names.add(name);
      else addressRanges.push(addressRange(entry));
    }
    return new InternalHostsAllowList(entries, names, addressRanges);
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  allowsName(hostname: string): boolean {
    return this.names.has(withoutTrailingDot(hostname.toLowerCase()));
  }

  allowsAddress(address: string): boolean {
    const parsed = unmapped(ipaddr.parse(address));
    return this.ranges.some((range) => parsed.kind() === range[0].kind() && parsed.match(range));
  }
}

/** The entry as a host name, when it is one (and not an IP address or CIDR range). */
function hostName(entry: string): string | undefined {
  if (isIP(entry) || entry.includes('/') || entry.includes(':')) return undefined;
  const name = withoutTrailingDot(entry.toLowerCase());
  // The host name as a URL would carry it; a name `URL` rewrites (`0x7f.1` → 127.0.0.1) could never match.
  let canonical: string | undefined;
  try {
    canonical = new URL(`http://${name}/`).hostname;
  } catch {
    canonical = undefined;
  }
  if (canonical !== name || isIP(canonical)) {
    throw invalidEntry(entry);
  }
  return name;
}

function addressRange(entry: string): Range {
  const [address, bits, extra] = entry.split('/');
  const prefix = bits === undefined ? undefined : Number(bits);
  const maxBits = isIP(address) === 4 ? 32 : 128;
  const valid = isIP(address) !== 0 && extra === undefined && (prefix === undefined || (/^\d{1,3}$/.test(bits!) && prefix <= maxBits));
  if (!valid) {
    throw invalidEntry(entry);
  }
  const parsed = ipaddr.parse(address);
  if (prefix === undefined) {
    const single = unmapped(parsed);
    return [single, single.kind() === 'ipv4' ? 32 : 128];
  }
  return [parsed, prefix];
}

const invalidEntry = (entry: string): Error =>
  new Error(
    `"${entry}" in the allowed internal hosts (AVIARY_ALLOWED_INTERNAL_HOSTS or --allow-internal-hosts) is not a host name, ` +
      'an IP address (such as 10.0.0.5 or ::1) or a CIDR range (such as 10.0.0.0/8).',
  );

const withoutTrailingDot = (name: string): string => (name.endsWith('.') ? name.slice(0, -1) : name);
