import { Redis } from 'ioredis';
import * as v from 'valibot';
import { PARTS } from '@collectif/shared';
import { versionIdSchema } from '../deploy/versions';
import { figureTotals, figureVisitors, type SharedFigureTotals, type SharedFigureVisitors } from './counters';
export type { SharedPush } from './push';
import { sealer } from './seal';
import { sharedPush, type SharedPush } from './push';
import { sharedProposals, type SharedProposals } from './proposals';
export type { SharedProposals } from './proposals';

// The figures' counters are made here, on this file's connections, and reached through it only.
export {
  checkedFields,
  FIELDS_MAX,
  FIRST_MAX,
  PRESENT_MAX,
  type SharedFigureTotals,
  type SharedFigureVisitors,
} from './counters';

/**
 * What several instances of the site share through Redis or Valkey when REDIS_URL is set
 * (docs/deploy.md, « Shared state »): the rate limits' counters, the upstreams' answers with a lock
 * so that one instance polls each upstream per interval, the now-playing channel with its event
 * ids, and the rest « Redis » lists there, the audience figures' counts among them (counters.ts).
 * Without REDIS_URL none of this exists and the server is one process, as it always was. It is the
 * server's one way to Redis: one command connection, every key under one prefix (`collectif:`),
 * the scripts here and in counters.ts, the leases here (docs/deploy.md, « Redis »).
 *
 * Redis is never in the way: commands are not queued while it is unreachable, so each one fails at
 * once and its caller does what one instance alone would do (counts alone, polls alone, numbers its
 * own events). The outage is logged once, and its end; sharing resumes without a restart.
 *
 * Redis is trusted no further than its password (docs/deploy.md, « Redis »): every value read from
 * it is checked with its schema before use, as a request's body is, and a malformed one is taken
 * as absent. The names joined into paths (a part, a version's id) must have the form one from a
 * request must have.
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
  /**
   * Says a version is live; with its archive when it is new (kept for the instances that lack it, at
   * most 30 days, and dropped sooner once three newer versions are kept: `forget`).
   */
  publish(live: SharedLive, archive?: Uint8Array): Promise<void>;
  /** Drops the archives of these versions of a part, and their signatures. */
  forget(part: string, ids: readonly string[]): Promise<void>;
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

/**
 * The pictures editors upload (docs/content.md, « Pictures »): each WebP file by its name, for an
 * instance asked for one it lacks, kept `keptMs` after its upload or its last renewal (the content
 * that names it renews it). A name comes from the content, so a file is written once and never
 * replaced. Every method may throw.
 */
export interface SharedPictures {
  /** Gives files to Redis (those it has are kept as they are), for `keptMs` from now. */
  put(files: readonly { name: string; bytes: Buffer }[]): Promise<void>;
  get(name: string): Promise<Buffer | null>;
  /** Keeps these files `keptMs` from now; the names Redis no longer has. */
  keep(names: readonly string[]): Promise<string[]>;
}

/**
 * What the radio played (docs/content.md, « What the radio played »): rows recorded by every
 * instance, kept in a sorted set by their instant, each signed for its place. Every method may throw.
 */
export interface SharedPlayed {
  /** Adds rows (`text`: a row's JSON, `at`: its instant in ms); drops those older than `since`, keeps the newest `max`. */
  add(rows: readonly { at: number; text: string }[], { since, max }: { since: number; max: number }): Promise<void>;
  /** The rows from `since` on, oldest first, whose signature holds, and how many did not. */
  since(since: number): Promise<{ rows: string[]; forged: number }>;
}

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

export interface SharedState {
  /** The command connection (the rate limits' store uses it). */
  redis: Redis;
  leases: SharedLeases;
  cache: SharedCacheStore;
  nowPlaying: SharedEventChannel;
  played: SharedPlayed;
  deploys: SharedDeploys;
  content: SharedContent;
  pictures: SharedPictures;
  /** The audience figures' counts and last sample (docs/figures.md, « In Redis »); the sample's lock is a lease. */
  figures: SharedFigureTotals;
  /** « Me prévenir »'s subscriptions and what was sent (push.ts, docs/follow.md). */
  push: SharedPush;
  /** The proposals of shows and demos, their numbers and their spam bounds (proposals.ts, docs/proposals.md). */
  proposals: SharedProposals;
  /** Whether Redis answers now. */
  available(): boolean;
  close(): Promise<void>;
}

const PREFIX = 'collectif:';
/** How long Redis keeps an uploaded picture after its upload or its last renewal (30 days). */
export const PICTURE_KEPT_MS = 30 * 24 * 3600 * 1000;

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

/** A JSON value read from Redis, checked with its schema: null when absent, malformed or refused. */
function parsed<T>(schema: v.GenericSchema<unknown, T>, text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  try {
    const read = v.safeParse(schema, JSON.parse(text));
    return read.success ? read.output : null;
  } catch {
    return null;
  }
}

const eventSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^\d{1,15}$/)),
  data: v.pipe(v.string(), v.maxLength(64_000)),
});

const PART_NAMES = PARTS.map((part) => part.name);
/** What a deploy says of a version (team, commit, build time, contract range): short texts. */
const aboutSchema = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(64)), v.pipe(v.string(), v.maxLength(500))),
  v.check((about) => Object.keys(about).length <= 20, 'trop de champs'),
);
const liveSchema = v.object({
  part: v.picklist(PART_NAMES),
  id: versionIdSchema,
  receivedAt: v.pipe(v.string(), v.isoTimestamp()),
  about: v.optional(aboutSchema, {}),
});
const entrySchema = v.object({
  value: v.string(),
  version: v.pipe(v.number(), v.finite()),
  expiresAt: v.pipe(v.number(), v.finite()),
});
const failureSchema = v.object({
  failure: v.pipe(v.string(), v.maxLength(100)),
  detail: v.pipe(v.string(), v.maxLength(2000)),
  status: v.optional(v.pipe(v.number(), v.integer())),
  until: v.pipe(v.number(), v.finite()),
});

export const asEvent = (text: string): SharedEvent | null => parsed(eventSchema, text);
export const asLive = (text: string | null): SharedLive | null => parsed(liveSchema, text);
export const asEntry = (text: string | null | undefined): SharedEntry | null => parsed(entrySchema, text);
export const asFailure = (text: string | null | undefined): SharedFailure | null => parsed(failureSchema, text);

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
export async function connectShared(
  url: string,
  log: SharedLog,
  { secret, readyMs = 2000 }: { secret: string; readyMs?: number },
): Promise<SharedState> {
  // Each value is signed with the instances' key for its place, and checked on the way back.
  const seals = sealer(secret);
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
  /** A now-playing event read back: well-formed, its data signed by an instance. */
  const openEvent = (text: string): SharedEvent | null => {
    const event = asEvent(text);
    const data = event === null ? null : seals.open(channelName, event.data);
    return event === null || data === null ? null : { id: event.id, data };
  };
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
      const live = asLive(seals.open(deployChannel, text));
      if (live !== null) for (const listener of deployListeners) listener(live);
      return;
    }
    if (channel !== channelName) return;
    const event = openEvent(text);
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
      const opened = (place: string, text: string | null | undefined) =>
        text === null || text === undefined ? null : seals.open(place, text);
      return {
        entry: asEntry(opened(key(`upstream:${name}`), entry)),
        failure: asFailure(opened(key(`upstream:${name}:failure`), failure)),
      };
    },
    async write(name, entry, keepMs) {
      await redis
        .multi()
        .set(
          key(`upstream:${name}`),
          seals.seal(key(`upstream:${name}`), JSON.stringify(entry)),
          'PX',
          Math.max(1, Math.round(keepMs)),
        )
        .del(key(`upstream:${name}:failure`))
        .exec();
    },
    async fail(name, failure) {
      const ms = Math.max(1, Math.round(failure.until - Date.now()));
      const place = key(`upstream:${name}:failure`);
      await redis.set(place, seals.seal(place, JSON.stringify(failure)), 'PX', ms);
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

  const ARCHIVE_KEPT_MS = 30 * 24 * 3600 * 1000;
  const deploys: SharedDeploys = {
    async publish(live, archive) {
      const text = seals.seal(deployChannel, JSON.stringify(live));
      const batch = deployRedis.multi();
      if (archive !== undefined) {
        const place = key(`deploy:archive:${live.part}:${live.id}`);
        batch
          .set(place, Buffer.from(archive), 'PX', ARCHIVE_KEPT_MS)
          .set(`${place}:signature`, seals.sign(place, archive), 'PX', ARCHIVE_KEPT_MS);
      }
      await batch.hset(key('deploy:versions'), live.part, text).publish(deployChannel, text).exec();
    },
    async live() {
      const all = await deployRedis.hgetall(key('deploy:versions'));
      return Object.values(all)
        .map((text) => asLive(seals.open(deployChannel, text)))
        .filter((live): live is SharedLive => live !== null);
    },
    async archive(part, id) {
      // Only a part's name and a version's id of their forms make a key; an archive is taken only
      // with an instance's signature (a forged one would be a team's code no team sent).
      if (!v.is(liveSchema.entries.part, part) || !v.is(versionIdSchema, id)) return null;
      const place = key(`deploy:archive:${part}:${id}`);
      const [bytes, signature] = await Promise.all([
        deployRedis.getBuffer(place),
        deployRedis.get(`${place}:signature`),
      ]);
      return bytes !== null && signature !== null && seals.verify(place, bytes, signature) ? bytes : null;
    },
    async forget(part, ids) {
      // Only keys of the forms an archive is kept under are deleted (the ids are this instance's).
      if (!v.is(liveSchema.entries.part, part)) return;
      const places = ids.filter((id) => v.is(versionIdSchema, id)).map((id) => key(`deploy:archive:${part}:${id}`));
      if (places.length > 0) await deployRedis.del(...places.flatMap((place) => [place, `${place}:signature`]));
    },
    listen(listener) {
      deployListeners.push(listener);
    },
  };

  const content: SharedContent = {
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

  const pictures: SharedPictures = {
    async put(files) {
      const batch = deployRedis.multi();
      for (const { name, bytes } of files) {
        batch
          .set(key(`picture:${name}`), bytes, 'PX', PICTURE_KEPT_MS, 'NX')
          .pexpire(key(`picture:${name}`), PICTURE_KEPT_MS);
      }
      await batch.exec();
    },
    get: (name) => deployRedis.getBuffer(key(`picture:${name}`)),
    async keep(names) {
      const batch = redis.multi();
      for (const name of names) batch.pexpire(key(`picture:${name}`), PICTURE_KEPT_MS);
      const answers = (await batch.exec()) ?? [];
      return names.filter((_name, i) => answers[i]?.[1] !== 1);
    },
  };

  const playedKey = key('played');
  const played: SharedPlayed = {
    async add(rows, { since, max }) {
      if (rows.length === 0) return;
      // The same row recorded by several instances is one member: its text and its seal are the same.
      await redis
        .multi()
        .zadd(playedKey, ...rows.flatMap(({ at, text }) => [at, seals.seal(playedKey, text)]))
        .zremrangebyscore(playedKey, '-inf', `(${String(since)}`)
        .zremrangebyrank(playedKey, 0, -(max + 1))
        .exec();
    },
    async since(since) {
      const texts = await redis.zrangebyscore(playedKey, since, '+inf');
      const rows = texts.map((text) => seals.open(playedKey, text)).filter((text): text is string => text !== null);
      return { rows, forged: texts.length - rows.length };
    },
  };

  // Compare and act in one script: a lease that expired and was taken by another is not touched.
  const leases: SharedLeases = {
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

  return {
    redis,
    leases,
    figures: figureTotals(redis, (name) => key(`figures:${name}`), seals),
    push: sharedPush(redis, key, seals),
    proposals: sharedProposals(redis, key, seals),
    cache,
    nowPlaying,
    played,
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

/** A Redis that keeps nothing on disk (FIGURES_REDIS_URL), for what must never reach one. */
export interface VolatileRedis {
  /** What names the figures' visitors (docs/figures.md, « In Redis »), to use while `usable` says so. */
  visitors: SharedFigureVisitors;
  /** Whether it answers and said, at its last connection, that it has no save point and no append-only file. */
  usable: () => boolean;
  close(): Promise<void>;
}

/**
 * Connects to a Redis meant to keep nothing on disk (docs/figures.md, « Nothing on disk »). Its word
 * is checked at each connection: `CONFIG GET save` must be empty and `appendonly` must be `no`. A
 * Redis that persists, or that refuses CONFIG GET, is not used (said in the log) until a
 * connection finds it right: its caller keeps what it would have put there in its own memory.
 */
export function connectVolatile(url: string, log: SharedLog): VolatileRedis {
  const redis = new Redis(url, options);
  const where = shown(url);
  let usable = false;
  // Whether the refusal has been said (said once, and its end).
  let said = false;
  const refuse = (why: string) => {
    if (usable || !said) log.warn(`Redis sans disque (${where}) non utilisé : ${why}`);
    usable = false;
    said = true;
  };
  redis.on('ready', () => {
    Promise.all([redis.config('GET', 'save'), redis.config('GET', 'appendonly')]).then(
      ([save, appendonly]) => {
        const value = (answer: unknown) => (Array.isArray(answer) && typeof answer[1] === 'string' ? answer[1] : null);
        const saves = value(save);
        const appends = value(appendonly);
        if (saves === '' && appends === 'no') {
          if (said) log.warn(`Redis sans disque (${where}) utilisé : ni sauvegarde ni journal`);
          usable = true;
          said = false;
        } else {
          refuse(
            `il écrit sur disque (save « ${saves ?? '?'} », appendonly « ${appends ?? '?'} ») ; voir deploy/redis-figures.conf`,
          );
        }
      },
      (error: unknown) => {
        refuse(
          `CONFIG GET refusé (${error instanceof Error ? error.message : String(error)}) ; voir deploy/redis-figures.acl`,
        );
      },
    );
  });
  redis.on('error', () => {
    usable = false;
  });
  redis.on('close', () => {
    usable = false;
  });
  return {
    visitors: figureVisitors(redis, (name) => `${PREFIX}figures:${name}`),
    usable: () => usable,
    close: async () => {
      redis.disconnect();
      await Promise.resolve();
    },
  };
}
