import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { parsed } from './connection';
import type { Sealer } from './seal';

/** One now-playing event, numbered for the whole deployment. */
export interface SharedEvent {
  id: string;
  data: string;
}

/** The now-playing channel's side of Redis (api/http/sse.ts). Every method may throw. */
export interface SharedEventChannel {
  /** Publishes `data` as a new event unless it is the last one published; the event, or null. */
  publish(data: string): Promise<SharedEvent | null>;
  /** The last events, oldest first (at most `BACKLOG`). */
  recent(): Promise<SharedEvent[]>;
  /** Calls `listener` with each event published by any instance. */
  listen(listener: (event: SharedEvent) => void): void;
}

/** Events kept for a listener that reconnects with Last-Event-ID. */
export const BACKLOG = 50;

// Publishes an event only if it differs from the last one, atomically: instances that see the same
// new value at the same time publish it once, with one id.
const PUBLISH = `
local last = redis.call('GET', KEYS[1])
if last then
  local event = cjson.decode(last)
  if event.data == ARGV[1] then return false end
end
local id = redis.call('INCR', KEYS[2])
local event = cjson.encode({ id = tostring(id), data = ARGV[1] })
redis.call('SET', KEYS[1], event)
redis.call('RPUSH', KEYS[3], event)
redis.call('LTRIM', KEYS[3], -${String(BACKLOG)}, -1)
redis.call('PUBLISH', ARGV[2], event)
return event
`;

const eventSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^\d{1,15}$/)),
  data: v.pipe(v.string(), v.maxLength(64_000)),
});

export const asEvent = (text: string): SharedEvent | null => parsed(eventSchema, text);

/** A now-playing event read back: well-formed, its data signed by an instance. */
export const eventOpener =
  (seals: Sealer, channel: string) =>
  (text: string): SharedEvent | null => {
    const event = asEvent(text);
    const data = event === null ? null : seals.open(channel, event.data);
    return event === null || data === null ? null : { id: event.id, data };
  };

/**
 * The now-playing channel on the command connection: its events published on `channel` (heard on
 * the subscriber's connection, shared-state.ts, which calls `listeners`).
 */
export function sharedNowPlaying(
  redis: Redis,
  key: (name: string) => string,
  seals: Sealer,
  channelName: string,
  listeners: ((event: SharedEvent) => void)[],
): SharedEventChannel {
  const openEvent = eventOpener(seals, channelName);
  return {
    async publish(data) {
      // The data is signed (the same data, the same signature: the script still compares it).
      const result = (await redis.eval(
        PUBLISH,
        3,
        key('nowplaying:last'),
        key('nowplaying:id'),
        key('nowplaying:recent'),
        seals.seal(channelName, data),
        channelName,
      )) as string | null;
      return typeof result === 'string' ? openEvent(result) : null;
    },
    async recent() {
      const list = await redis.lrange(key('nowplaying:recent'), 0, -1);
      return list.map(openEvent).filter((event): event is SharedEvent => event !== null);
    },
    listen(listener) {
      listeners.push(listener);
    },
  };
}
