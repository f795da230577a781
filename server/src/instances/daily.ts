import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

/**
 * Counts by name and day (docs/server.md, « Daily counts »): the one way of the bounds per network
 * and day (proposals, « Me prévenir »'s new subscriptions) and per recipient (the proposals'
 * acknowledgement). A name is never kept as it is: it is a keyed hash (HMAC with SITE_SECRET) of the
 * scope, the day and the name, so that neither Redis nor this process's memory holds an address.
 *
 * - With Redis the count is Redis's own (INCR, kept two days so that midnight in any zone is
 *   covered): two instances never lose one. Redis away, this instance counts alone until it is back.
 * - Without Redis the counts live in this process's memory, one table for the day: the day's table
 *   goes when the next day starts, never cleared whole before. A day's table holds at most `max`
 *   names; past it, a name not counted yet reads as over every bound (refused until the next day),
 *   rather than forgetting the names already counted.
 */
export interface DailyCounts {
  /** Adds one to each name's count of the day; each count after, in the same order. */
  add(names: readonly string[]): Promise<number[]>;
}

export interface DailyCountsOptions {
  /** What the counts are of (`proposals`, `push`, `ack`): two scopes never share a count. */
  scope: string;
  /** The hashes' key (SITE_SECRET, or a random one for one instance). */
  secret: string;
  now: () => number;
  /** Redis's count of a hashed name (INCR, kept two days); null: this process alone. */
  shared: ((name: string) => Promise<number>) | null;
  /** Names one day's table may hold in memory. */
  max?: number;
}

/** Names one day's table holds in memory by default: about 100 bytes each, 5 MB at most. */
export const DAILY_NAMES_MAX = 50_000;

export function createDailyCounts(options: DailyCountsOptions): DailyCounts {
  const { scope, secret, now, shared } = options;
  const max = options.max ?? DAILY_NAMES_MAX;
  let day = '';
  let table = new Map<string, number>();

  const hashed = (today: string, name: string) =>
    createHmac('sha256', secret).update(`${scope}\n${today}\n${name}`).digest('base64url');

  const local = (name: string): number => {
    const count = table.get(name);
    if (count === undefined && table.size >= max) return Number.MAX_SAFE_INTEGER;
    const after = (count ?? 0) + 1;
    table.set(name, after);
    return after;
  };

  return {
    async add(names) {
      const today = new Date(now()).toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        table = new Map();
      }
      const keys = names.map((name) => hashed(today, name));
      if (shared !== null) {
        try {
          return await Promise.all(keys.map((key) => shared(key)));
        } catch {
          // Redis away: this instance counts alone until it is back.
        }
      }
      return keys.map(local);
    },
  };
}

/**
 * A visitor's network, and the wider one around it: an IPv6 address's /64 (one network) and /48 (a
 * site's allocation: 65,536 /64s); an IPv4 address itself and its /24.
 */
export function networksOf(address: string): { network: string; wide: string } {
  const network = normalizeIP(address);
  if (isIPv6(network)) return { network, wide: normalizeIP(address, 48) };
  const parts = network.split('.');
  return { network, wide: parts.length === 4 ? `${parts.slice(0, 3).join('.')}.0/24` : network };
}
