import type { Redis } from 'ioredis';

/**
 * A lease one instance holds at a time (the live's recorder, docs/timeshift.md, « One recorder »):
 * taken with a token of the taker's, kept by renewing it before it expires, given back at close.
 * Every method may throw.
 */
export interface SharedLeases {
  /** Takes `name` for `ms` if nobody holds it; whether it was taken. */
  take(name: string, token: string, ms: number): Promise<boolean>;
  /** Extends `name` for `ms` if `token` still holds it; whether it does. */
  renew(name: string, token: string, ms: number): Promise<boolean>;
  /** Gives `name` back if `token` holds it. */
  release(name: string, token: string): Promise<void>;
}

/** The leases on the command connection. */
export function sharedLeases(redis: Redis, key: (name: string) => string): SharedLeases {
  // Compare and act in one script: a lease that expired and was taken by another is not touched.
  return {
    async take(name, token, ms) {
      return (await redis.set(key(`lease:${name}`), token, 'PX', Math.round(ms), 'NX')) === 'OK';
    },
    async renew(name, token, ms) {
      const result = await redis.eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end",
        1,
        key(`lease:${name}`),
        token,
        String(Math.round(ms)),
      );
      return result === 1;
    },
    async release(name, token) {
      await redis.eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end",
        1,
        key(`lease:${name}`),
        token,
      );
    },
  };
}
