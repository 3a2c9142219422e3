import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internalKindOf, InternalHostsAllowList, type InternalKind } from '../../src/net/addressPolicy.js';

/** The address a connection to this URL host goes to, as undici hands it to the connector. */
const connectHost = (urlHost: string): string => new URL(`http://${urlHost}/`).hostname.replace(/^\[(.*)\]$/, '$1');

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
const v4In = (first: number[], second = fc.nat(255)) =>
  fc.tuple(fc.constantFrom(...first), second, fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
const hextet = fc.nat(0xffff).map((n) => n.toString(16));
const v6With = (first: fc.Arbitrary<number>) => fc.tuple(first, fc.array(hextet, { minLength: 7, maxLength: 7 })).map(([head, rest]) => [head.toString(16), ...rest].join(':'));
/** The IPv4 address as an IPv6 tail: `7f00:1` for 127.0.0.1. */
const asHextets = (address: string): string => {
  const [a, b, c, d] = address.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

describe('internal address classification', () => {
  const cases: Array<[string, InternalKind]> = [
    ['0.0.0.0', 'this network'],
    ['0.255.255.255', 'this network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.255', 'shared (carrier-grade NAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::7f00:1', 'reserved'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
  ];
  it.each(cases)('%s is internal (%s)', (address, kind) => {
    expect(internalKindOf(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '223.255.255.255', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (address) => {
      expect(internalKindOf(address)).toBeUndefined();
    },
  );

  it('sees 127.0.0.1 however a URL spells it', () => {
    const spellings = ['127.0.0.1', '0x7f.1', '2130706433', '017700000001', '127.1', '127.0.1', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '127.0.0.1.', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::]'];
    for (const spelling of spellings) expect([spelling, internalKindOf(connectHost(spelling))]).toEqual([spelling, 'loopback']);
  });

  it('classifies every IPv4 address as its mapped, NAT64 and 6to4 IPv6 forms', () => {
    fc.assert(
      fc.property(v4, (address) => {
        const kind = internalKindOf(address);
        expect(internalKindOf(`::ffff:${address}`)).toBe(kind);
        expect(internalKindOf(`64:ff9b::${asHextets(address)}`)).toBe(kind);
        expect(internalKindOf(`2002:${asHextets(address)}::1`)).toBe(kind);
      }),
    );
  });

  it('agrees with WHATWG URL on every IPv4 spelling: decimal, hex, octal, as one number', () => {
    const spell = fc.constantFrom<(n: number) => string>(
      (n) => String(n),
      (n) => `0x${n.toString(16)}`,
      (n) => `0${n.toString(8)}`,
    );
    fc.assert(
      fc.property(v4, spell, spell, (address, first, rest) => {
        const octets = address.split('.').map(Number);
        const dotted = [first(octets[0]), ...octets.slice(1).map(rest)].join('.');
        const whole = first(octets.reduce((sum, octet) => sum * 256 + octet, 0));
        expect(connectHost(dotted)).toBe(address);
        expect(connectHost(whole)).toBe(address);
        expect(internalKindOf(connectHost(dotted))).toBe(internalKindOf(address));
      }),
    );
  });

  it('refuses whole ranges: loopback, private, link-local, unique-local, multicast, and IPv6 outside global unicast', () => {
    const wholeRanges: Array<[fc.Arbitrary<string>, InternalKind | 'some kind']> = [
      [v4In([127]), 'loopback'],
      [v4In([10]), 'private'],
      [v4In([172], fc.integer({ min: 16, max: 31 })), 'private'],
      [v4In([192], fc.constant(168)), 'private'],
      [v4In([169], fc.constant(254)), 'link-local'],
      [v4In([224, 230, 239]), 'multicast'],
      [v4In([240, 250, 254]), 'reserved'],
      [v6With(fc.integer({ min: 0xfc00, max: 0xfdff })), 'unique-local'],
      [v6With(fc.integer({ min: 0xfe80, max: 0xfebf })), 'link-local'],
      [v6With(fc.integer({ min: 0xff00, max: 0xffff })), 'multicast'],
      // Outside 2000::/3, but not an IPv4-mapped or NAT64 address (those are as internal as their IPv4 address).
      [v6With(fc.integer({ min: 0, max: 0xffff }).filter((first) => first < 0x2000 || first > 0x3fff)).filter((address) => !/^(0:0:0:0:0:ffff|64:ff9b:0:0:0:0):/.test(address)), 'some kind'],
    ];
    for (const [addresses, kind] of wholeRanges) {
      fc.assert(
        fc.property(addresses, (address) => {
          if (kind === 'some kind') expect(internalKindOf(address), address).toBeDefined();
          else expect(internalKindOf(address), address).toBe(kind);
        }),
      );
    }
  });
});

describe('allowed internal hosts', () => {
  const allowList = InternalHostsAllowList.parse(['LocalHost.', 'listener.internal', '10.1.2.3', '192.168.0.0/16', 'fd00::/8', '::1']);

  it('matches names case-insensitively, with or without the final dot, and nothing else by name', () => {
    expect(['localhost', 'LOCALHOST', 'localhost.', 'Listener.Internal'].map((name) => allowList.allowsName(name))).toEqual([true, true, true, true]);
    expect(['other.internal', 'sub.listener.internal', 'localhost.example', '10.1.2.3'].map((name) => allowList.allowsName(name))).toEqual([false, false, false, false]);
  });

  it('matches addresses and ranges, IPv4-mapped addresses as the IPv4 address they are', () => {
    const allowed = ['10.1.2.3', '::ffff:10.1.2.3', '192.168.200.1', '::ffff:c0a8:1', 'fd00::5', '::1'];
    const refused = ['10.1.2.4', '127.0.0.1', 'fe80::1', 'fc00::1', '::2', '::ffff:127.0.0.1'];
    expect(allowed.filter((address) => !allowList.allowsAddress(address))).toEqual([]);
    expect(refused.filter((address) => allowList.allowsAddress(address))).toEqual([]);
  });

  it('refuses an entry it could never match, naming it', () => {
    for (const entry of ['0x7f.1', '2130706433', '127.1', '10.0.0.0/33', '::1/129', '10.0.0.0/8/8', '10.0.0.0/x', 'two words', 'localhost:3000', 'http://localhost']) {
      expect(() => InternalHostsAllowList.parse([entry]), entry).toThrow(`"${entry}" in the allowed internal hosts (AVIARY_ALLOWED_INTERNAL_HOSTS or --allow-internal-hosts) is not a host name`);
    }
  });
});
