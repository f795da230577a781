import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { ExtraHosts } from './endpoint';

/**
 * The address guard of the push deliveries (docs/push.md, « The address guard »):
 * an endpoint's host is chosen by a visitor, so every connection to it resolves the host and
 * refuses it when any of its addresses is not a public unicast one: private, loopback, link-local,
 * unique-local, unspecified, multicast, shared (CGNAT), documentation, benchmarking, reserved, or
 * an IPv4 address of those carried in IPv6 (mapped, NAT64; 6to4 and Teredo are refused whole). Checked at each connection, not
 * at subscription time, so that a name that later resolves to the machine's network (DNS
 * rebinding) reaches nothing. A host of the settings' extra list is not checked: the admin vouches
 * for it (a self-hosted push service on the local network; the fake of the tests on 127.0.0.1).
 */

/** Resolves a host name to its addresses (injectable for tests). */
export type Resolve = (host: string) => Promise<readonly LookupAddress[]>;

/** The system's resolver, every address (both families, in the system's order). */
export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, order: 'verbatim' });

/** The code of the error a refused connection fails with (`error.code`, or a cause's). */
export const REFUSED_ADDRESS = 'PUSH_ADDRESS_REFUSED';

/** A connection refused by the guard: its host only, never an endpoint's path. */
export class RefusedAddressError extends Error {
  readonly code = REFUSED_ADDRESS;
  constructor(readonly host: string) {
    super(`Adresse non publique refusée pour l'hôte ${host}`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * The ranges that are not public unicast, from the IANA special-purpose registries (RFC 6890 and
 * its updates). An IPv4 range also covers its IPv4-mapped IPv6 form (`::ffff:127.0.0.1`), which
 * Node's BlockList checks against the IPv4 rules.
 */
const NOT_PUBLIC: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[] = [
  ['0.0.0.0', 8, 'ipv4'], // « this network », unspecified
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // shared address space (CGNAT)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (and the clouds' metadata services)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 96, 'ipv6'], // unspecified, loopback, IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard-only
  ['2001::', 23, 'ipv6'], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4 (deprecated): an IPv4 address inside
  ['3fff::', 20, 'ipv6'], // documentation
  ['5f00::', 16, 'ipv6'], // segment routing
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [network, prefix, type] of NOT_PUBLIC) notPublic.addSubnet(network, prefix, type);

/** The well-known NAT64 prefix (RFC 6052): its last 32 bits are the IPv4 address translated to. */
const nat64 = new BlockList();
nat64.addSubnet('64:ff9b::', 96, 'ipv6');

/** The eight 16-bit words of an IPv6 address (a valid one, without zone), a dotted IPv4 tail included. */
function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Whether an address (IPv4, or IPv6 with or without brackets and zone) is public unicast. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone belongs only to link-local addresses, which are refused anyway.
  if (bare.includes('%')) return false;
  const family = isIP(bare);
  if (family === 0) return false;
  try {
    if (notPublic.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return false;
    if (family === 6 && nat64.check(bare, 'ipv6')) {
      const words = ipv6Words(bare);
      const [high = 0, low = 0] = words.slice(6);
      return isPublicAddress(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
    }
    return true;
  } catch {
    return false;
  }
}

export interface GuardOptions {
  extra: ExtraHosts;
  resolve?: Resolve;
}

/** The addresses of `host` the guard lets a connection reach: all of them, or a refusal. */
export async function guardedAddresses(host: string, options: GuardOptions): Promise<LookupAddress[]> {
  const hostname = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const vouched = options.extra.vouches(hostname);
  const family = isIP(hostname);
  if (family !== 0) {
    if (!vouched && !isPublicAddress(hostname)) throw new RefusedAddressError(hostname);
    return [{ address: hostname, family }];
  }
  const addresses = await (options.resolve ?? systemResolve)(hostname);
  if (addresses.length === 0) throw new RefusedAddressError(hostname);
  // One address outside the public Internet refuses the whole name: nothing legitimate mixes them.
  if (!vouched && addresses.some((entry) => !isPublicAddress(entry.address))) throw new RefusedAddressError(hostname);
  return addresses.map(({ address, family }) => ({ address, family }));
}

/**
 * A `lookup` for `net.connect` and `tls.connect` (undici's `connect` options) that answers only
 * the addresses the guard lets through. It answers both of Node's forms: every address when asked
 * for all (`autoSelectFamily`, Node's default), else the first of the family asked.
 */
export function guardedLookup(options: GuardOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    guardedAddresses(hostname, options).then(
      (addresses) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
        const first = usable[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`Aucune adresse pour l'hôte ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        } else if (lookupOptions.all === true) {
          (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), '', 0);
      },
    );
  };
}

export interface GuardedAgentOptions extends GuardOptions {
  /** The connection's deadline (TCP and TLS), in milliseconds. */
  connectTimeoutMs: number;
  /** An extra certificate authority to trust (the fake push service's, in tests). */
  ca?: string | Buffer;
  /** Connections kept per origin at most. */
  connections?: number;
}

/**
 * An undici Agent whose every connection goes through the guard: names through `guardedLookup`,
 * literal addresses (which Node connects to without any lookup) checked before connecting.
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const lookup = guardedLookup(options);
  const connector = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  return new Agent({
    ...(options.connections === undefined ? {} : { connections: options.connections }),
    connect(connectOptions, callback) {
      const { hostname } = connectOptions;
      const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
      if (isIP(bare) !== 0 && !options.extra.vouches(bare) && !isPublicAddress(bare)) {
        callback(new RefusedAddressError(bare), null);
        return;
      }
      connector(connectOptions, callback);
    },
  });
}

/** Whether an error (or one of its causes) is the guard's refusal. */
export function isRefusedAddress(error: unknown): boolean {
  // Duck-typed: an error may come from another realm (Node's internals seen from a test).
  let cause: unknown = error;
  for (let depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth += 1) {
    if ((cause as { code?: unknown }).code === REFUSED_ADDRESS) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
