import { isIP, type BlockList } from 'node:net';
import { plainAddress, trustedProxies } from '../../config/trustProxy.js';
import type { FastifyRequest } from 'fastify';

/** How many `X-Forwarded-For` hops are walked at most: more proxies than this in a row is a misconfiguration. */
const MAX_HOPS = 16;

/**
 * The address of the client a request came from, as `AVIARY_TRUST_PROXY` (config.trustProxy) decides:
 * the connection's peer, unless that peer is a trusted proxy. Then `X-Forwarded-For` is walked from the
 * right (what the nearest proxy appended), skipping trusted proxies, and the first address that is not
 * one is the client. A hop that is not an IP address stops the walk at the last address known good.
 * The answer is always a plain IP address, so it is safe as part of a rate-limit key.
 */
export function clientAddressResolver(trustProxy: string[]): (request: FastifyRequest) => string {
  const trusted = trustedProxies(trustProxy);
  return (request) => {
    let address = plainAddress(request.socket.remoteAddress ?? '') ?? 'unknown';
    if (trustProxy.length === 0) return address;
    const hops = forwardedFor(request);
    for (let i = 0; i < MAX_HOPS && isTrusted(trusted, address) && hops.length > 0; i++) {
      const hop = plainAddress(hops.pop()!);
      if (hop === undefined) break;
      address = hop;
    }
    return address;
  };
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Every X-Forwarded-For hop, left to right, from all the headers of that name. */
function forwardedFor(request: FastifyRequest): string[] {
  const header = request.headers['x-forwarded-for'];
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined.split(',').map((hop) => hop.trim());
}

