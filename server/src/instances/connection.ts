import * as v from 'valibot';

// The connections to Redis (docs/deploy.md, « Redis »): their options, the one key prefix, and how a
// value read back is checked.

/** Where the outage and its end are said (at the same level, so that an admin sees both). */
export interface SharedLog {
  warn: (message: string) => void;
}

/** Every key of the site's, in Redis. */
export const PREFIX = 'collectif:';

/** A JSON value read from Redis, checked with its schema: null when absent, malformed or refused. */
export function parsed<T>(schema: v.GenericSchema<unknown, T>, text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  try {
    const read = v.safeParse(schema, JSON.parse(text));
    return read.success ? read.output : null;
  } catch {
    return null;
  }
}

/** The address without its password, for the log. */
export function shown(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.username = '';
    return parsed.href;
  } catch {
    return 'REDIS_URL';
  }
}

/** The options of every connection: no queue while Redis is away, short timeouts. */
export const options = {
  // A command fails at once while Redis is unreachable rather than waiting in a queue.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1000,
  // A connected Redis that does not answer is given up after 2 s. Not less: once the server's event
  // loop is free after a long task, Node runs the timers due before it reads the sockets, so a
  // timeout shorter than the hold failed a command whose answer had come (connection.test.ts).
  commandTimeout: 2000,
  // Reconnects for ever, every second at most.
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
};
