import { normalizeIP } from '@fastify/rate-limit';
import { createHmac } from 'node:crypto';
import * as v from 'valibot';
import { FIGURES_LIVE_BEACON_S, FIGURES_THRESHOLD, type Beacon, type LIVE_SOURCES } from '@collectif/shared/schemas';
import type { FiguresFiles } from './files';
import { minuteOfDay, nextParisMidnight, parisDay, parisDayStart, daysBefore } from './paris';
import type { Tally } from './tally';

/**
 * The audience figures (docs/figures.md): beacons counted once a day per visitor through a salted
 * hash, the live's sources sampled once a period (a minute by default), the day's counts written to
 * disk as aggregates by show, day and hour. What names a visitor never leaves the tally, and lives
 * until midnight.
 */

export type LiveSource = (typeof LIVE_SOURCES)[number];

/** A source the sampler reads once a period: the listeners it says, or undefined when it failed. */
export type SourceReader = () => Promise<number | undefined>;

/** Who sent a beacon or asked for the timeline's playlist: read from the request, never kept. */
export interface Visitor {
  address: string;
  userAgent: string;
  /** The browser says the visitor objects (`Sec-GPC: 1`): nothing is counted. */
  objects: boolean;
}

/** What was on air at an instant: the residence whose slot it is, or null. */
export type OnAir = (at: number) => Promise<string | null>;

export interface FiguresOptions {
  tally: Tally;
  files: FiguresFiles;
  clock: () => number;
  /** The radio's own counts (AzuraCast's, Icecast's), by name; the site's are counted here. */
  sources: Partial<Record<'azuracast' | 'icecast', SourceReader>>;
  onAir: OnAir;
  /** Whether an episode of this slug exists (a forged slug is not counted). */
  episodeExists: (slug: string) => Promise<boolean>;
  /** Whether an admin turned « N à l'écoute » on (content kind `figures`). */
  showListeners: () => boolean;
  /** What counting did, for the metrics. */
  counted?: (what: string) => void;
  /** Each sample taken, for the metrics. */
  sampled?: (sample: Sample) => void;
  /** How often `start` samples the live (FIGURES_SAMPLE_SECONDS); a minute unless said. */
  sampleMs?: number;
  warn?: (message: string) => void;
}

/** Visitors (address and user agent) one address may bring in a day; past them, dropped. */
export const VISITORS_PER_ADDRESS_DAY = 200;
/** New things one visitor may add to the counts in a day (replays, milestones, moments, slots). */
export const DEEDS_PER_VISITOR_DAY = 100;
/** A live beacon keeps its listener present this long (one beacon lost is no departure). */
export const PLAYER_PRESENT_MS = (FIGURES_LIVE_BEACON_S + 60) * 1000;
/** A timeline listener asks for its playlist every segment (10 s); present this long after. */
export const TIMELINE_PRESENT_MS = 60_000;
/**
 * Timeline listeners one address may make present in a day (a household, an office): past them, a
 * new one from that address is not counted, whatever its user agent says.
 */
export const TIMELINE_PER_ADDRESS = 5;
/** The start of a replay is kept to the 10 seconds (a tracklist's row is longer). */
export const MOMENT_STEP_S = 10;
/** The last sample is shared this many periods (150 s at a minute each); older, the count is unknown. */
const LAST_KEPT_PERIODS = 2.5;

const lastSchema = v.object({
  at: v.pipe(v.number(), v.integer()),
  total: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000)),
});

export interface Sample {
  at: number;
  total: number;
  sources: Partial<Record<LiveSource, number>>;
  residence: string | null;
}

export interface Figures {
  /** Counts a beacon; whether it counted something new. */
  beacon(visitor: Visitor, beacon: Beacon): Promise<boolean>;
  /** A request for the timeline's playlists: its listener is present. */
  timeline(visitor: Visitor): Promise<void>;
  /** Samples the live (once a period for the deployment); null when another instance did. */
  sample(): Promise<Sample | null>;
  /** Writes today's counts (and yesterday's) to disk; forgets yesterday's salt. */
  flush(): Promise<void>;
  /** A day's counts: on disk, with the tally's for the days it still holds. */
  day(day: string): Promise<Record<string, number>>;
  /** « N à l'écoute »: the live's listeners when turned on and at least FIGURES_THRESHOLD. */
  liveListeners(): Promise<number | undefined>;
  /** Samples and writes once a period until `close`. */
  start(): void;
  close(): Promise<void>;
}

const hash = (salt: Buffer, text: string) => createHmac('sha256', salt).update(text).digest('base64url').slice(0, 22);

export function createFigures(options: FiguresOptions): Figures {
  const { tally, files, clock, sampleMs = 60_000 } = options;
  const lastKeptMs = sampleMs * LAST_KEPT_PERIODS;
  const counted = options.counted ?? (() => undefined);
  let timer: NodeJS.Timeout | undefined;
  let lastDay: string | null = null;
  let prunedOn: string | null = null;

  /** Today, when it ends, and the visitor's salted names for it. */
  const today = async (visitor: Visitor) => {
    const now = clock();
    const day = parisDay(now);
    const keptMs = nextParisMidnight(now) - now;
    const salt = await tally.salt(day, keptMs);
    return {
      now,
      day,
      keptMs,
      // The address and user agent, hashed with the day's salt: the same visitor today, nobody tomorrow.
      id: hash(salt, `${visitor.address}\n${visitor.userAgent}`),
      // Every per-address bound keys on the network a visitor holds: an IPv6 /64, as the rate limits
      // do (@fastify/rate-limit's `normalizeIP`), an IPv4 address as it is.
      address: hash(salt, `adresse\n${normalizeIP(visitor.address)}`),
    };
  };

  const firstTime = (day: string, member: string, keptMs: number) => tally.first(day, member, keptMs);

  return {
    async beacon(visitor, beacon) {
      if (visitor.objects) {
        counted('objected');
        return false;
      }
      const { now, day, keptMs, id, address } = await today(visitor);
      // Bounded per address and per visitor (docs/figures.md, « The beacon »): a new visitor from an
      // address past its day's visitors is set aside for the day; repeated beacons cost nothing.
      if (await firstTime(day, `${address}:${id}`, keptMs)) {
        if ((await tally.quota(day, address, keptMs)) > VISITORS_PER_ADDRESS_DAY) {
          await firstTime(day, `${id}:over`, keptMs);
        } else if (await firstTime(day, id, keptMs)) await tally.add(day, 'visitors', 1);
      }
      if (await tally.has(day, `${id}:over`)) {
        counted('over_quota');
        return false;
      }
      /** A deed counted once a day, within the visitor's day's bound: whether it was new. */
      const deed = async (member: string, fields: string[]) => {
        if (!(await firstTime(day, `${id}:${member}`, keptMs))) return false;
        if ((await tally.quota(day, `actes:${id}`, keptMs)) > DEEDS_PER_VISITOR_DAY) return false;
        for (const field of fields) await tally.add(day, field, 1);
        return true;
      };
      const hour = Math.floor(minuteOfDay(now) / 60);
      if (beacon.kind === 'live') {
        // Present at each beacon (the live's count); counted once a day, and once per show.
        await tally.touch('player', id, now);
        let fresh = await deed('live', [beacon.embed === true ? 'listeners:embed' : 'listeners:site']);
        const residence = await options.onAir(now);
        if (residence !== null && (await deed(`live:${residence}`, [`show:${residence}:listeners`]))) fresh = true;
        counted(fresh ? 'live' : 'repeated');
        return fresh;
      }
      if (!(await options.episodeExists(beacon.episode))) {
        counted('unknown_episode');
        return false;
      }
      if (beacon.kind === 'replay') {
        const moment = Math.floor(beacon.second / MOMENT_STEP_S) * MOMENT_STEP_S;
        let fresh = await deed(`r:${beacon.episode}`, [
          `${beacon.embed === true ? 'embed' : 'play'}:${beacon.episode}`,
          `plays:${String(hour)}`,
        ]);
        if (
          moment > 0 &&
          (await deed(`m:${beacon.episode}:${String(moment)}`, [`moment:${beacon.episode}:${String(moment)}`]))
        ) {
          fresh = true;
        }
        counted(fresh ? 'replay' : 'repeated');
        return fresh;
      }
      const fresh = await deed(`p:${beacon.episode}:${String(beacon.percent)}`, [
        `reach:${beacon.episode}:${String(beacon.percent)}`,
      ]);
      counted(fresh ? 'progress' : 'repeated');
      return fresh;
    },

    async timeline(visitor) {
      if (visitor.objects) return;
      const { now, day, keptMs, id, address } = await today(visitor);
      // Bounded per address (docs/figures.md, « What is counted »): a new listener past the address's
      // day's listeners is not made present.
      if (await firstTime(day, `timeline:${address}:${id}`, keptMs)) {
        if ((await tally.quota(day, `timeline:${address}`, keptMs)) > TIMELINE_PER_ADDRESS) {
          await firstTime(day, `timeline:${id}:over`, keptMs);
        }
      }
      if (await tally.has(day, `timeline:${id}:over`)) return;
      await tally.touch('timeline', id, now);
    },

    async sample() {
      const now = clock();
      // One sample a period for the deployment: its lease is named by the period's number.
      const period = Math.floor(now / sampleMs);
      if (!(await tally.lock(`sample:${String(period)}`, sampleMs * 1.5))) return null;
      const sources: Partial<Record<LiveSource, number>> = {};
      for (const name of ['azuracast', 'icecast'] as const) {
        const read = options.sources[name];
        if (read === undefined) continue;
        const value = await read().catch(() => undefined);
        if (value !== undefined) sources[name] = value;
      }
      sources.player = await tally.present('player', now - PLAYER_PRESENT_MS);
      sources.timeline = await tally.present('timeline', now - TIMELINE_PRESENT_MS);
      // The radio's own count holds the site's player (it listens to the same stream) but not the
      // timeline's listeners, whose audio comes from the site (docs/figures.md, « What is counted »).
      const radio = sources.azuracast ?? sources.icecast;
      const total = (radio ?? sources.player) + sources.timeline;
      const day = parisDay(now);
      const elapsed = minuteOfDay(now);
      const hour = String(Math.floor(elapsed / 60));
      const residence = await options.onAir(now).catch(() => null);
      for (const [name, value] of [...Object.entries(sources), ['total', total] as const]) {
        await tally.max(day, `live:${name}:${hour}:peak`, value);
        await tally.add(day, `live:${name}:${hour}:sum`, value);
        await tally.add(day, `live:${name}:${hour}:n`, 1);
        if (residence !== null) await tally.max(day, `slotsrc:${residence}:${name}`, value);
      }
      if (residence !== null) await tally.max(day, `slot:${residence}:${String(elapsed)}`, total);
      await tally.setLast(JSON.stringify({ at: now, total }), lastKeptMs);
      counted('sample');
      const sample = { at: now, total, sources, residence };
      options.sampled?.(sample);
      return sample;
    },

    async flush() {
      const now = clock();
      const day = parisDay(now);
      if (lastDay !== null && lastDay !== day) {
        // Past midnight: yesterday's salt and visitors are forgotten here and in Redis.
        await tally.forget(day);
      }
      lastDay = day;
      for (const one of [daysBefore(day, 1), day]) {
        const [disk, tallied] = await Promise.all([files.read(one), tally.read(one)]);
        const merged = { ...disk };
        let changed = false;
        for (const [name, value] of Object.entries(tallied)) {
          if ((merged[name] ?? -1) < value) {
            merged[name] = value;
            changed = true;
          }
        }
        if (changed) await files.write(one, merged);
        if (one === day) {
          // What the disk has and the tally lost (Redis emptied, a restart alone) is given back.
          for (const [name, value] of Object.entries(disk)) {
            if ((tallied[name] ?? -1) < value) await tally.max(one, name, value);
          }
        }
      }
      if (prunedOn !== day) {
        prunedOn = day;
        await files.prune(day);
      }
    },

    async day(day) {
      const [disk, tallied] = await Promise.all([files.read(day), tally.read(day)]);
      const merged = { ...disk };
      for (const [name, value] of Object.entries(tallied)) merged[name] = Math.max(merged[name] ?? 0, value);
      return merged;
    },

    async liveListeners() {
      if (!options.showListeners()) return undefined;
      const text = await tally.getLast().catch(() => null);
      let read: v.SafeParseResult<typeof lastSchema> | null;
      try {
        read = text === null ? null : v.safeParse(lastSchema, JSON.parse(text));
      } catch {
        read = null;
      }
      if (read === null || !read.success || clock() - read.output.at > lastKeptMs) return undefined;
      return read.output.total >= FIGURES_THRESHOLD ? read.output.total : undefined;
    },

    start() {
      if (timer !== undefined) return;
      const tick = async () => {
        try {
          await this.sample();
          await this.flush();
        } catch (error) {
          options.warn?.(`chiffres : ${error instanceof Error ? error.message : String(error)}`);
        }
      };
      timer = setInterval(() => void tick(), sampleMs);
      timer.unref();
      void tick();
    },

    async close() {
      clearInterval(timer);
      timer = undefined;
      await this.flush().catch(() => undefined);
    },
  };
}

/** The day's start (for the reports), re-exported for them. */
export { parisDayStart };
