import { createPublicKey, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import * as v from 'valibot';

/**
 * A push subscription given by a visitor (« Me prévenir »), checked before it is kept: the site
 * will later POST to its endpoint from its own machine, so the endpoint is hostile input that
 * chooses where the server connects (docs/push.md, « Endpoints »).
 *
 * - The endpoint is an `https:` URL of at most 1,024 characters, with no user name or password and
 *   no fragment, whose host is one of the browsers' push services (Google's, Mozilla's, Apple's,
 *   any subdomain of Microsoft's `notify.windows.com`) or a host of the settings' extra list (a
 *   self-hosted push service; in tests, the fake on 127.0.0.1). Only an extra-listed entry may name
 *   a port, and a literal IP address is refused unless the extra list names it: a vendor's push
 *   service is always reached by its name.
 * - `keys.p256dh` is an uncompressed P-256 point (65 bytes starting with 0x04, on the curve) and
 *   `keys.auth` 16 bytes, both in base64url. Browsers give them unpadded (`PushSubscription.toJSON`);
 *   trailing `=` padding is tolerated, the standard alphabet's `+` and `/` are not. What is kept is
 *   the canonical, unpadded form.
 *
 * A refusal is one French sentence that never repeats what was given (it may be shown to the
 * visitor, and logged).
 */

/** The longest endpoint kept (the vendors' are 150 to 500 characters). */
export const ENDPOINT_MAX = 1024;

/** The browsers' push services, by exact host name. */
export const VENDOR_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
];

/** Domains whose every subdomain (not the domain itself) is a push service: Microsoft's WNS. */
export const VENDOR_DOMAINS: readonly string[] = ['notify.windows.com'];

/** The refusals, in French, never naming what was given. */
export const REFUSALS = {
  shape: "L'abonnement aux notifications est mal formé.",
  endpoint: "L'adresse du service de notifications n'est pas reconnue.",
  p256dh: "La clé de chiffrement de l'abonnement n'est pas valable.",
  auth: "Le secret d'authentification de l'abonnement n'est pas valable.",
} as const;

/**
 * The shape of a subscription as a browser sends it (`PushSubscription.toJSON()`), bounded: the
 * rules beyond the shape are `checkSubscription`'s. `expirationTime` is accepted and dropped.
 */
export const pushSubscriptionSchema = v.object({
  endpoint: v.pipe(v.string(), v.maxLength(ENDPOINT_MAX)),
  expirationTime: v.optional(v.nullable(v.number())),
  keys: v.object({
    p256dh: v.pipe(v.string(), v.maxLength(100)),
    auth: v.pipe(v.string(), v.maxLength(40)),
  }),
});

/** A subscription that passed every check: its endpoint normalized, its keys unpadded base64url. */
export interface CheckedSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export type SubscriptionCheck = { ok: true; value: CheckedSubscription } | { ok: false; message: string };

/**
 * The extra list of the settings, read once: each entry `host` (the default port) or `host:port`,
 * an IPv6 address in brackets (`[::1]:8443`).
 */
export interface ExtraHosts {
  /** Whether this host name (as `URL.hostname` writes it, IPv6 in brackets) and port ('' for 443) are listed. */
  allows(hostname: string, port: string): boolean;
  /** Whether this host name is listed with any port (the address guard's question: it sees no port). */
  vouches(hostname: string): boolean;
}

/**
 * Reads the extra list; throws on an entry that is not a host or `host:port` (a setting's mistake,
 * said at start-up).
 */
export function extraHostsOf(entries: readonly string[]): ExtraHosts {
  const pairs = new Set<string>();
  const names = new Set<string>();
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(`https://${entry}`);
    } catch {
      throw new Error(`Hôte supplémentaire de service de notifications illisible : « ${entry} »`);
    }
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || entry.includes('/'))
      throw new Error(`Hôte supplémentaire de service de notifications illisible : « ${entry} »`);
    pairs.add(`${url.hostname} ${url.port}`);
    names.add(bare(url.hostname));
  }
  return {
    allows: (hostname, port) => pairs.has(`${hostname.toLowerCase()} ${port}`),
    vouches: (hostname) => names.has(bare(hostname.toLowerCase())),
  };
}

/** A host name without the brackets of an IPv6 address. */
const bare = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

/** Whether `hostname` (lower case, as `URL.hostname` writes it) is one of the vendors' push services. */
export function isVendorHost(hostname: string): boolean {
  // Letters, digits and hyphens in non-empty labels: no empty label, no trailing dot.
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(hostname)) return false;
  if (VENDOR_HOSTS.includes(hostname)) return true;
  return VENDOR_DOMAINS.some((domain) => hostname.endsWith(`.${domain}`));
}

/** The URL of an acceptable endpoint, or null. */
export function checkEndpoint(endpoint: string, extra: ExtraHosts): URL | null {
  if (endpoint.length > ENDPOINT_MAX || endpoint.includes('#')) return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  if (extra.allows(url.hostname, url.port)) return url;
  if (url.port !== '') return null;
  // A literal address: IPv4 as URL writes it (any numeric form becomes dotted), IPv6 in brackets.
  if (isIP(bare(url.hostname)) !== 0) return null;
  return isVendorHost(url.hostname) ? url : null;
}

/** The bytes of a base64url text (padding tolerated), or null. */
function base64url(text: string, bytes: number): Buffer | null {
  const unpadded = text.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(unpadded) || unpadded.length !== Math.ceil((bytes * 4) / 3)) return null;
  const decoded = Buffer.from(unpadded, 'base64url');
  // Refuses the non-canonical forms (stray bits in the last character).
  return decoded.length === bytes && decoded.toString('base64url') === unpadded ? decoded : null;
}

/** The public key of 65 bytes that are an uncompressed point of P-256 (0x04, then x and y, on the curve); null otherwise. */
export function p256PublicKey(point: Buffer): KeyObject | null {
  if (point.length !== 65 || point[0] !== 0x04) return null;
  try {
    return createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    return null;
  }
}

const isP256Point = (point: Buffer): boolean => p256PublicKey(point) !== null;

/** Checks a subscription given by a visitor: the checked value, or a French refusal. */
export function checkSubscription(input: unknown, extra: ExtraHosts): SubscriptionCheck {
  const shaped = v.safeParse(pushSubscriptionSchema, input);
  if (!shaped.success) {
    // An endpoint too long, or not a text, is an endpoint not recognized.
    const atEndpoint = shaped.issues.every((issue) => issue.path?.[0]?.key === 'endpoint');
    return { ok: false, message: atEndpoint ? REFUSALS.endpoint : REFUSALS.shape };
  }
  const { endpoint, keys } = shaped.output;
  const url = checkEndpoint(endpoint, extra);
  if (url === null) return { ok: false, message: REFUSALS.endpoint };
  const p256dh = base64url(keys.p256dh, 65);
  if (p256dh === null || !isP256Point(p256dh)) return { ok: false, message: REFUSALS.p256dh };
  const auth = base64url(keys.auth, 16);
  if (auth === null) return { ok: false, message: REFUSALS.auth };
  return {
    ok: true,
    value: { endpoint: url.href, keys: { p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') } },
  };
}

/** The host of an endpoint, for a log line (never its path, which is the subscription's secret). */
export function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host || 'hôte illisible';
  } catch {
    return 'adresse illisible';
  }
}
