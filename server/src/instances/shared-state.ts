import { Redis } from 'ioredis';

/**
 * What several instances of the site share through Redis or Valkey when REDIS_URL is set
 * (docs/deploy.md, « Shared state »): the rate limits' counters, the upstreams' answers with a lock
 * so that one instance polls each upstream per interval, and the now-playing channel with its event
 * ids. Without REDIS_URL none of this exists and the server is one process, as it always was.
 *
 * Redis is never in the way: commands are not queued while it is unreachable, so each one fails at
 * once and its caller does what one instance alone would do (counts alone, polls alone, numbers its
 * own events). The outage is logged once, and its end; sharing resumes without a restart.
 */

/** Where the outage and its end are said (at the same level, so that an admin sees both). */
export interface SharedLog {
  warn: (message: string) => void;
}

/** An upstream's answer as kept in Redis. */
export interface SharedEntry {
  /** The value, as JSON. */
  value: string;
  /** Changes with each new answer (when it was fetched, in ms). */
  version: number;
  /** Fresh until then (ms since the epoch); served as stale after it when the upstream fails. */
  expiresAt: number;
}

/** An upstream that failed, said to every instance until another try is due. */
export interface SharedFailure {
  /** How it failed (UpstreamFailure), with the detail and status that said it. */
  failure: string;
  detail: string;
  status?: number;
  until: number;
}

/** The upstream caches' side of Redis (upstream/cache.ts). Every method may throw: Redis is away. */
export interface SharedCacheStore {
  read(key: string): Promise<{ entry: SharedEntry | null; failure: SharedFailure | null }>;
  write(key: string, entry: SharedEntry, keepMs: number): Promise<void>;
  fail(key: string, failure: SharedFailure): Promise<void>;
  /** Takes the key's lock for `ms` if nobody holds it. */
  lock(key: string, ms: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
}

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

/** A part's version made live by a deploy or a rollback on any instance (docs/deploy.md, « Every instance »). */
export interface SharedLive {
  part: string;
  id: string;
  receivedAt: string;
  about: Record<string, string>;
}

/** The parts' live versions, shared by the instances, with the archives to unpack them from. */
export interface SharedDeploys {
  /** Says a version is live; with its archive when it is new (kept 30 days for the instances that lack it). */
  publish(live: SharedLive, archive?: Uint8Array): Promise<void>;
  /** Every part's live version, for an instance that starts. */
  live(): Promise<SharedLive[]>;
  archive(part: string, id: string): Promise<Buffer | null>;
  /** Calls `listener` with each version made live by any instance. */
  listen(listener: (live: SharedLive) => void): void;
}

/**
 * The content volunteers edit (docs/content.md, « Several instances »): each kind's current version,
 * as its JSON, said to every instance when one saves it. Every method may throw.
 */
export interface SharedContent {
  /** Says a kind's new current version (a ContentVersion, as JSON). */
  publish(kind: string, version: string): Promise<void>;
  /** Every kind's current version, for an instance that starts. */
  current(): Promise<string[]>;
  /** Calls `listener` with each version any instance saves. */
  listen(listener: (version: string) => void): void;
}

/**
 * The pictures editors upload (docs/content.md, « Pictures »): each WebP file by its name, with no
 * expiry, for an instance asked for one it lacks. A name comes from the content, so a file is
 * written once and never replaced. Every method may throw.
 */
export interface SharedPictures {
  put(files: readonly { name: string; bytes: Buffer }[]): Promise<void>;
  get(name: string): Promise<Buffer | null>;
}

export interface SharedState {
  /** The command connection (the rate limits' store uses it). */
  redis: Redis;
  cache: SharedCacheStore;
  nowPlaying: SharedEventChannel;
  deploys: SharedDeploys;
  content: SharedContent;
  pictures: SharedPictures;
  /** Whether Redis answers now. */
  available(): boolean;
  close(): Promise<void>;
}

const PREFIX = 'collectif:';
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

function asEvent(text: string): SharedEvent | null {
  try {
    const event = JSON.parse(text) as Partial<SharedEvent>;
    return typeof event.id === 'string' && typeof event.data === 'string' ? { id: event.id, data: event.data } : null;
  } catch {
    return null;
  }
}

function asLive(text: string): SharedLive | null {
  try {
    const live = JSON.parse(text) as Partial<SharedLive>;
    return typeof live.part === 'string' && typeof live.id === 'string' && typeof live.receivedAt === 'string'
      ? { part: live.part, id: live.id, receivedAt: live.receivedAt, about: live.about ?? {} }
      : null;
  } catch {
    return null;
  }
}

/** The address without its password, for the log. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.username = '';
    return parsed.href;
  } catch {
    return 'REDIS_URL';
  }
}

const options = {
  // A command fails at once while Redis is unreachable rather than waiting in a queue.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1000,
  commandTimeout: 500,
  // Reconnects for ever, every second at most.
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
};

/**
 * Connects to REDIS_URL; waits at most `readyMs` for it (a new instance then starts from what Redis
 * holds), and starts anyway if it does not answer.
 */
export async function connectShared(url: string, log: SharedLog, readyMs = 2000): Promise<SharedState> {
  const redis = new Redis(url, options);
  // Deploys and uploaded pictures are rare and carry megabytes: a connection of their own, whose
  // commands may take seconds on a busy instance (the others fail in half a second, to serve
  // visitors alone).
  const deployRedis = new Redis(url, { ...options, commandTimeout: 15_000 });
  deployRedis.on('error', () => undefined);
  // Subscribed connections take no other command: one for the channel.
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  const where = shown(url);
  // Whether Redis answers, and whether its outage has been said.
  const state = { up: false, said: false };
  const down = (error?: Error) => {
    if (state.up || !state.said) {
      log.warn(
        `Redis injoignable (${where}${error === undefined ? '' : ` : ${error.message}`}) : chaque instance compte, interroge les sources et numérote le direct seule jusqu'à son retour`,
      );
    }
    state.up = false;
    state.said = true;
  };
  redis.on('ready', () => {
    if (state.said) log.warn(`Redis de retour (${where}) : état partagé repris`);
    state.up = true;
    state.said = false;
  });
  redis.on('error', down);
  redis.on('end', () => {
    down();
  });
  redis.on('close', () => {
    if (state.up) down();
  });

  const key = (name: string) => `${PREFIX}${name}`;
  const channelName = key('nowplaying:events');
  const deployChannel = key('deploy:live');
  const listeners: ((event: SharedEvent) => void)[] = [];
  const deployListeners: ((live: SharedLive) => void)[] = [];
  const contentChannel = key('content:current');
  const contentListeners: ((version: string) => void)[] = [];
  subscriber.on('message', (channel: string, text: string) => {
    if (channel === contentChannel) {
      for (const listener of contentListeners) listener(text);
      return;
    }
    if (channel === deployChannel) {
      const live = asLive(text);
      if (live !== null) for (const listener of deployListeners) listener(live);
      return;
    }
    if (channel !== channelName) return;
    const event = asEvent(text);
    if (event !== null) for (const listener of listeners) listener(event);
  });
  subscriber.on('error', () => undefined);
  // Subscribed before the instance serves: a save or a deploy said by another instance right after
  // this one started is heard (a subscription still on its way would miss it, for good).
  const subscribed = subscriber.subscribe(channelName, deployChannel, contentChannel).then(
    () => undefined,
    () => undefined,
  );

  // Both connections ready (an instance that starts reads the live versions on the second), or
  // `readyMs` past.
  const ready = (connection: Redis) =>
    new Promise<void>((resolve) => {
      if (connection.status === 'ready') {
        resolve();
        return;
      }
      const timer = setTimeout(resolve, readyMs);
      connection.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  const atMost = (promise: Promise<void>) =>
    Promise.race([promise, new Promise<void>((resolve) => setTimeout(resolve, readyMs).unref())]);
  await Promise.all([ready(redis), ready(deployRedis), atMost(subscribed)]);
  if (!state.up && !state.said) down();

  const cache: SharedCacheStore = {
    async read(name) {
      const [entry, failure] = await redis.mget(key(`upstream:${name}`), key(`upstream:${name}:failure`));
      return {
        entry: entry === null || entry === undefined ? null : (JSON.parse(entry) as SharedEntry),
        failure: failure === null || failure === undefined ? null : (JSON.parse(failure) as SharedFailure),
      };
    },
    async write(name, entry, keepMs) {
      await redis
        .multi()
        .set(key(`upstream:${name}`), JSON.stringify(entry), 'PX', Math.max(1, Math.round(keepMs)))
        .del(key(`upstream:${name}:failure`))
        .exec();
    },
    async fail(name, failure) {
      const ms = Math.max(1, Math.round(failure.until - Date.now()));
      await redis.set(key(`upstream:${name}:failure`), JSON.stringify(failure), 'PX', ms);
    },
    async lock(name, ms) {
      return (await redis.set(key(`upstream:${name}:lock`), '1', 'PX', Math.round(ms), 'NX')) === 'OK';
    },
    async unlock(name) {
      await redis.del(key(`upstream:${name}:lock`));
    },
  };

  const nowPlaying: SharedEventChannel = {
    async publish(data) {
      const result = (await redis.eval(
        PUBLISH,
        3,
        key('nowplaying:last'),
        key('nowplaying:id'),
        key('nowplaying:recent'),
        data,
        channelName,
      )) as string | null;
      return typeof result === 'string' ? asEvent(result) : null;
    },
    async recent() {
      const list = await redis.lrange(key('nowplaying:recent'), 0, -1);
      return list.map(asEvent).filter((event): event is SharedEvent => event !== null);
    },
    listen(listener) {
      listeners.push(listener);
    },
  };

  const ARCHIVE_KEPT_MS = 30 * 24 * 3600 * 1000;
  const deploys: SharedDeploys = {
    async publish(live, archive) {
      const text = JSON.stringify(live);
      const batch = deployRedis.multi();
      if (archive !== undefined) {
        batch.set(key(`deploy:archive:${live.part}:${live.id}`), Buffer.from(archive), 'PX', ARCHIVE_KEPT_MS);
      }
      await batch.hset(key('deploy:versions'), live.part, text).publish(deployChannel, text).exec();
    },
    async live() {
      const all = await deployRedis.hgetall(key('deploy:versions'));
      return Object.values(all)
        .map(asLive)
        .filter((live): live is SharedLive => live !== null);
    },
    archive: (part, id) => deployRedis.getBuffer(key(`deploy:archive:${part}:${id}`)),
    listen(listener) {
      deployListeners.push(listener);
    },
  };

  const content: SharedContent = {
    async publish(kind, version) {
      await redis.multi().hset(contentChannel, kind, version).publish(contentChannel, version).exec();
    },
    async current() {
      return Object.values(await redis.hgetall(contentChannel));
    },
    listen(listener) {
      contentListeners.push(listener);
    },
  };

  const pictures: SharedPictures = {
    async put(files) {
      const batch = deployRedis.multi();
      for (const { name, bytes } of files) batch.set(key(`picture:${name}`), bytes, 'NX');
      await batch.exec();
    },
    get: (name) => deployRedis.getBuffer(key(`picture:${name}`)),
  };

  return {
    redis,
    cache,
    nowPlaying,
    deploys,
    content,
    pictures,
    available: () => state.up,
    close: async () => {
      listeners.length = 0;
      deployListeners.length = 0;
      contentListeners.length = 0;
      redis.disconnect();
      deployRedis.disconnect();
      subscriber.disconnect();
      await Promise.resolve();
    },
  };
}
