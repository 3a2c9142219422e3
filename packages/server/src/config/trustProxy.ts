import { BlockList, isIP } from 'node:net';

/** An IP address as one spelling: brackets dropped, IPv4-mapped IPv6 as IPv4; undefined if not an address. */
export function plainAddress(value: string): string | undefined {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  const family = isIP(bare);
  if (family === 0) return undefined;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
    if (mapped && isIP(mapped) === 4) return mapped;
    return bare.toLowerCase();
  }
  return bare;
}

/**
 * The proxies `AVIARY_TRUST_PROXY` lists (addresses and CIDR ranges), as a list to check addresses
 * against. The configuration checks it at start (config.ts), so a wrong entry stops the server there.
 */
export function trustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [rawAddress, prefix, extra] = entry.split('/');
    const address = plainAddress(rawAddress ?? '');
    const family = address === undefined ? 0 : isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    const bits = prefix === undefined ? maxBits : Number(prefix);
    if (!address || extra !== undefined || (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) || bits > maxBits) {
      throw new Error(`"${entry}" is not an IP address or a CIDR range (such as 10.0.0.1 or 10.0.0.0/8).`);
    }
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}
