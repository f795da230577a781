import type { PushKind } from './subscriptions';

/**
 * When « Me prévenir » sends (docs/push.md, « When it sends »), run by the one instance that holds
 * the sender's lease:
 *
 * - **A show starts**: a slot of the programme naming a residence begins, and the live is on (the
 *   radio's now-playing answers). A timer is set at each start of the next minutes, so that its
 *   followers are told at the start itself, not at the next look; a start missed (the lease taken
 *   over, the live late) is still told within `lateMs` of it, never after: « en direct » an hour
 *   late is wrong.
 * - **An episode appears in the feed**, published within `freshMs`: its residences' followers.
 *
 * Each is sent once: a mark per show (the residence and the slot's start) and per episode (its
 * slug), set with NX in the store (Redis with several instances, and the file), before sending. The
 * first look of a site that never sent marks the feed's episodes as they are (its baseline), so that
 * installing the site or clearing its marks tells nobody of old episodes.
 */

export interface ShowSlot {
  residence: string;
  /** Instants in ms. */
  start: number;
  end: number;
}

export interface FeedEpisode {
  slug: string;
  residences: readonly string[];
  /** In ms; null when the feed says no date (never told: nothing says it is new). */
  publishedAt: number | null;
  /**
   * The live archive this episode is the same show as (docs/archive.md): told once for both, so
   * SoundCloud's copy of an archive already told is not told again.
   */
  sameAs?: string;
}

/** What is told: a show's start, or an episode (with the residence of each follower asked). */
export type Told =
  { kind: 'live'; residence: string; slot: ShowSlot } | { kind: 'replay'; residence: string; slug: string };

export interface WatchOptions {
  now: () => number;
  /** The programme's slots that meet [from, to), each with its residence. */
  slots(from: number, to: number): Promise<ShowSlot[]>;
  /** Whether the live is on now. */
  liveOn(): Promise<boolean>;
  /** The feed's episodes, newest first. */
  episodes(): Promise<readonly FeedEpisode[]>;
  marks: { once(name: string, ms: number): Promise<boolean>; done(name: string): Promise<boolean> };
  tell(told: Told): Promise<void>;
  log: { warn(message: string): void };
  /** Called after each look (the metrics count them). */
  looked?: () => void;
  /** How often the programme and the feed are read (a timer is set for each start within `aheadMs`). */
  checkMs?: number;
  aheadMs?: number;
  /** A start is told at most this long after it. */
  lateMs?: number;
  /** While the live is not on at a start, it is asked again this often. */
  retryMs?: number;
  /** An episode is new only if published within this long. */
  freshMs?: number;
}

/** A mark is kept well beyond what it guards: an episode's for a year and a month. */
const EPISODE_MARK_MS = 400 * 24 * 3600_000;
/** The episodes looked at, newest first: more than a feed adds between two looks. */
const EPISODES_LOOKED_AT = 50;

export const markOf = (told: Told): string =>
  told.kind === 'live' ? `live:${told.residence}:${String(told.slot.start)}` : `replay:${told.slug}`;

export interface Watch {
  /** Reads the programme and the feed once, sends what is due, and sets the timers of the coming starts. */
  check(): Promise<void>;
  start(): void;
  stop(): void;
}

export function createWatch(options: WatchOptions): Watch {
  const { now, marks, log } = options;
  const checkMs = options.checkMs ?? 30_000;
  const aheadMs = options.aheadMs ?? 2 * checkMs;
  const lateMs = options.lateMs ?? 15 * 60_000;
  const retryMs = options.retryMs ?? 10_000;
  const freshMs = options.freshMs ?? 3 * 24 * 3600_000;
  // The timers set, by the mark of the start they tell.
  const timers = new Map<string, NodeJS.Timeout>();
  let interval: NodeJS.Timeout | null = null;
  let running = false;

  const arm = (name: string, ms: number, run: () => Promise<void>) => {
    const timer = setTimeout(
      () => {
        timers.delete(name);
        if (running) void run();
      },
      Math.max(0, ms),
    );
    timer.unref();
    timers.set(name, timer);
  };

  /** Tells a show's start when the live is on, once; asks again while it is not, until too late. */
  async function showStarts(slot: ShowSlot): Promise<void> {
    const told: Told = { kind: 'live', residence: slot.residence, slot };
    const name = markOf(told);
    const at = now();
    // A timer may fire a millisecond before its time: it is set again for what remains.
    if (at < slot.start) {
      if (!timers.has(name)) arm(name, slot.start - at, () => showStarts(slot));
      return;
    }
    if (at >= slot.end || at - slot.start > lateMs) return;
    if (await marks.done(name)) return;
    const on = await options.liveOn().catch(() => false);
    if (!on) {
      if (!timers.has(name)) arm(name, retryMs, () => showStarts(slot));
      return;
    }
    if (!(await marks.once(name, slot.end - slot.start + lateMs))) return;
    await options.tell(told).catch((error: unknown) => {
      log.warn(`notification « ${slot.residence} en direct » non envoyée : ${String(error)}`);
    });
  }

  async function shows(): Promise<void> {
    const at = now();
    const slots = await options.slots(at - lateMs, at + aheadMs);
    for (const slot of slots) {
      const name = markOf({ kind: 'live', residence: slot.residence, slot });
      if (slot.start <= at) await showStarts(slot);
      else if (!timers.has(name)) arm(name, slot.start - at, () => showStarts(slot));
    }
  }

  async function episodes(): Promise<void> {
    const list = (await options.episodes()).slice(0, EPISODES_LOOKED_AT);
    if (!(await marks.done('replay:baseline'))) {
      for (const episode of list) {
        await marks.once(`replay:${episode.slug}`, EPISODE_MARK_MS);
        if (episode.sameAs !== undefined) await marks.once(`replay:${episode.sameAs}`, EPISODE_MARK_MS);
      }
      await marks.once('replay:baseline', EPISODE_MARK_MS);
      return;
    }
    const at = now();
    for (const episode of list) {
      if (episode.publishedAt === null || at - episode.publishedAt > freshMs || episode.residences.length === 0)
        continue;
      if (!(await marks.once(`replay:${episode.slug}`, EPISODE_MARK_MS))) continue;
      // The archive of the same show, told before: not again (docs/archive.md, « Followers told »).
      if (episode.sameAs !== undefined && !(await marks.once(`replay:${episode.sameAs}`, EPISODE_MARK_MS))) continue;
      for (const residence of episode.residences) {
        await options.tell({ kind: 'replay', residence, slug: episode.slug }).catch((error: unknown) => {
          log.warn(`notification « nouvelle émission ${episode.slug} » non envoyée : ${String(error)}`);
        });
      }
    }
  }

  async function check(): Promise<void> {
    // Each half on its own: a programme that cannot be read does not keep the feed's episodes back.
    await shows().catch((error: unknown) => {
      log.warn(`notifications : programme illisible (${String(error)})`);
    });
    await episodes().catch((error: unknown) => {
      log.warn(`notifications : flux illisible (${String(error)})`);
    });
    options.looked?.();
  }

  return {
    check,
    start() {
      if (running) return;
      running = true;
      void check();
      interval = setInterval(() => void check(), checkMs);
      interval.unref();
    },
    stop() {
      running = false;
      if (interval !== null) clearInterval(interval);
      interval = null;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type { PushKind };
