import type { Redis } from 'ioredis';

/**
 * The content volunteers edit (docs/content.md, « Several instances »): each kind's current version,
 * as its JSON, said to every instance when one saves it. Every method may throw.
 */
export interface SharedContent {
  /**
   * Makes `value` (a signed ContentVersion) the kind's current version and says it to every
   * instance, if the current one in Redis is not newer than `follows` (the version it was prepared
   * from), or, with `replacing`, if the current value is exactly that one (unreadable, to replace).
   * null when done; otherwise the current value, which came first.
   */
  claim(
    kind: string,
    version: { id: string; follows: string; value: string; replacing?: string },
  ): Promise<string | null>;
  /** Every kind's current version, for an instance that starts. */
  current(): Promise<string[]>;
  /** Calls `listener` with each version any instance saves. */
  listen(listener: (version: string) => void): void;
}

// A content version claimed against the one it follows, atomically (docs/content.md, « Several
// instances »): KEYS are the current values and their ids by kind; ARGV the kind, the new id, the id
// it follows, the value, the channel, and, to replace an unreadable current value, '1' and that value.
const CLAIM = `
local value = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[6] == '1' then
  if (value or '') ~= ARGV[7] then return value or '' end
else
  local current = redis.call('HGET', KEYS[2], ARGV[1])
  if current and current > ARGV[3] then return value or '' end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PUBLISH', ARGV[5], ARGV[4])
return false
`;

/**
 * The content's versions on the command connection: the current ones in a hash named as the channel
 * each is said on (heard on the subscriber's connection, shared-state.ts, which calls `contentListeners`).
 */
export function sharedContent(
  redis: Redis,
  key: (name: string) => string,
  contentChannel: string,
  contentListeners: ((version: string) => void)[],
): SharedContent {
  return {
    async claim(kind, { id, follows, value, replacing }) {
      const before = (await redis.eval(
        CLAIM,
        2,
        contentChannel,
        key('content:ids'),
        kind,
        id,
        follows,
        value,
        contentChannel,
        replacing === undefined ? '0' : '1',
        replacing ?? '',
      )) as string | null;
      return typeof before === 'string' ? before : null;
    },
    async current() {
      return Object.values(await redis.hgetall(contentChannel));
    },
    listen(listener) {
      contentListeners.push(listener);
    },
  };
}
