import { Redis } from 'ioredis';
import { options, PREFIX, shown, type SharedLog } from './connection';
import { sharedContent, type SharedContent } from './content';
import { figureTotals, type SharedFigureTotals } from './counters';
import { asLive, sharedDeploys, type SharedDeploys, type SharedLive } from './deploys';
import { sharedLeases, type SharedLeases } from './leases';
import { eventOpener, sharedNowPlaying, type SharedEvent, type SharedEventChannel } from './now-playing';
import { sharedPictures, type SharedPictures } from './pictures';
import { sharedPlayed, type SharedPlayed } from './played';
import { sealer } from './seal';
import { sharedPush, type SharedPush } from './push';
import { sharedProposals, type SharedProposals } from './proposals';
import { sharedCache, type SharedCacheStore } from './upstream-store';

// Each side of Redis is a module of this folder, made here on this file's connections and reached
// through it only: what other modules have always imported from here.
export type { SharedLog } from './connection';
export type { SharedContent } from './content';
export { asLive, type SharedDeploys, type SharedLive } from './deploys';
export type { SharedLeases } from './leases';
export { asEvent, BACKLOG, type SharedEvent, type SharedEventChannel } from './now-playing';
export { PICTURE_KEPT_MS, type SharedPictures } from './pictures';
export type { SharedPlayed } from './played';
export type { SharedProposals } from './proposals';
export type { SharedPush } from './push';
export { asEntry, asFailure, type SharedCacheStore, type SharedEntry, type SharedFailure } from './upstream-store';
export { connectVolatile, type VolatileRedis } from './volatile';

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
 * each side in a module of this folder with its scripts (now-playing.ts, content.ts, leases.ts,
 * counters.ts…), made here (docs/deploy.md, « Redis »).
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
  const openEvent = eventOpener(seals, channelName);
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

  return {
    redis,
    leases: sharedLeases(redis, key),
    figures: figureTotals(redis, (name) => key(`figures:${name}`), seals),
    push: sharedPush(redis, key, seals),
    proposals: sharedProposals(redis, key, seals),
    cache: sharedCache(redis, key, seals),
    nowPlaying: sharedNowPlaying(redis, key, seals, channelName, listeners),
    played: sharedPlayed(redis, key, seals),
    deploys: sharedDeploys(deployRedis, key, seals, deployChannel, deployListeners),
    content: sharedContent(redis, key, contentChannel, contentListeners),
    pictures: sharedPictures(redis, deployRedis, key),
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
