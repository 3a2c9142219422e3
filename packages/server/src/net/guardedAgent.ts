import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { internalKindOf, type InternalHostsAllowList, type InternalKind } from './addressPolicy.js';

/**
 * The one way the server sends requests to URLs that people gave it (app listeners today; anything
 * later goes through here too). The check runs when a connection is made, on the addresses the name
 * resolves to right then, and the socket connects only to addresses that passed it: a name that
 * resolved to a public address a minute ago and to 127.0.0.1 now (DNS rebinding) is refused. Redirects
 * are never followed (undici's dispatch does not; nobody adds the redirect interceptor).
 */

/** A connection refused by the policy: no packet went to the address. */
export class InternalAddressRefused extends Error {
  readonly code = 'AVIARY_INTERNAL_ADDRESS';

  constructor(
    /** The URL's host as undici connects to it (an IPv6 literal without brackets). */
    readonly host: string,
    /** The refused address (the host itself when it is an IP address). */
    readonly address: string,
    readonly kind: InternalKind,
  ) {
    // A name's resolved address stays in the server's log: it would tell whoever chose the URL about the internal network.
    super(
      `${isIP(host) ? `address ${address} is internal (${kind})` : `host "${host}" resolves to an internal address`}; ` +
        'an administrator can allow it with AVIARY_ALLOWED_INTERNAL_HOSTS',
    );
  }
}

export function isInternalAddressRefused(error: unknown): error is InternalAddressRefused {
  return error instanceof InternalAddressRefused;
}

export interface GuardedAgentOptions {
  allowList: InternalHostsAllowList;
  /** Resolve names with these DNS servers (`host` or `host:port`) instead of the system's resolver. */
  dnsServers?: readonly string[];
  connectTimeoutMs: number;
  /** Told of every refusal, so that the server's log says which address it was. */
  onRefused(refusal: InternalAddressRefused): void;
  headersTimeout?: number;
  bodyTimeout?: number;
}

/** An undici Agent that connects only to public addresses and allowed hosts. */
export function guardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({ headersTimeout: options.headersTimeout, bodyTimeout: options.bodyTimeout, connect: guardedConnector(options) });
}

/**
 * Whether a connection to the URL's host and port (through TLS for https) can be made right now, under
 * the same policy as the agent's: nothing is sent, and the connection is closed at once. For telling
 * when a listener that could not be reached is back, without sending it anything.
 */
export function guardedConnectionProbe(options: GuardedAgentOptions): (url: string) => Promise<boolean> {
  const connect = guardedConnector(options);
  return (url) =>
    new Promise((resolve) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return resolve(false);
      }
      const tls = target.protocol === 'https:';
      const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
      connect(
        { hostname, host: target.host, protocol: target.protocol, port: target.port || (tls ? '443' : '80'), servername: tls && !isIP(hostname) ? hostname : undefined },
        (error, socket) => {
          socket?.destroy();
          resolve(error === null);
        },
      );
    });
}

/** undici's connector with the address policy in front of it. */
function guardedConnector(options: GuardedAgentOptions): buildConnector.connector {
  const refuse = (host: string, addresses: readonly string[]): InternalAddressRefused | undefined => {
    const refusal = refusalFor(options.allowList, host, addresses);
    if (refusal) options.onRefused(refusal);
    return refusal;
  };
  const connector = buildConnector({ timeout: options.connectTimeoutMs, lookup: guardedLookup(resolverFor(options.dnsServers), refuse) });
  return (connectOptions, callback) => {
    // Node connects to an IP address without calling `lookup`, so addresses written in the URL are checked here.
    const refusal = isIP(connectOptions.hostname) ? refuse(connectOptions.hostname, [connectOptions.hostname]) : undefined;
    if (refusal) callback(refusal, null);
    else connector(connectOptions, callback);
  };
}

/** The first address the allow-list does not cover, as a refusal; an allowed name is never checked. */
function refusalFor(allowList: InternalHostsAllowList, host: string, addresses: readonly string[]): InternalAddressRefused | undefined {
  if (allowList.allowsName(host)) return undefined;
  for (const address of addresses) {
    const kind = internalKindOf(address);
    if (kind && !allowList.allowsAddress(address)) return new InternalAddressRefused(host, address, kind);
  }
  return undefined;
}

type Resolve = (host: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

/**
 * `lookup` for `net.connect`: resolves, refuses the whole name if any of its addresses is internal (an
 * attacker's name could list a public address first), else hands every address to Node, which connects
 * only to those.
 */
function guardedLookup(resolve: Resolve, refuse: (host: string, addresses: readonly string[]) => Error | undefined): LookupFunction {
  return (host: string, options: LookupOptions, callback) => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(host, family).then(
      (addresses) => {
        const refusal = refuse(host, addresses.map((entry) => entry.address));
        if (refusal) callback(refusal, '', 0);
        else if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function resolverFor(servers: readonly string[] | undefined): Resolve {
  if (!servers?.length) return (host, family) => dns.lookup(host, { all: true, family });
  const resolver = new dns.Resolver();
  resolver.setServers([...servers]);
  return async (host, family) => {
    const [v4, v6] = await Promise.allSettled([
      family === 6 ? [] : resolver.resolve4(host),
      family === 4 ? [] : resolver.resolve6(host),
    ]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    throw [v4, v6].find((result) => result.status === 'rejected')?.reason ?? Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
  };
}
