import { writeXml, xmlSafe } from '../../files/xml';
import { siteConfig } from '@collectif/shared/config';
import type { DemoResidence } from '../../schedule/demo-residences';

export interface DemoReplay {
  name: string;
  seconds: number;
}

export interface DemoFeed {
  xml: string;
  /** trackUrn → playable URL: demo tracks resolve through /api/track to the demo files. */
  tracks: Map<string, string>;
}

export interface DemoFeedOptions {
  residences: readonly DemoResidence[];
  replays: readonly DemoReplay[];
  /** The newest show is the evening before this day (UTC). */
  anchor: Date;
  count?: number;
  seed?: number;
}

export const DEMO_FEED_SIZE = 600;
export const demoReplayUrl = (name: string) => `/api/demo/replays/${name}.mp3`;

function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 822 as SoundCloud writes it: `Wed, 04 Mar 2026 18:00:00 +0000`. */
export function rfc822(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[date.getUTCDay()] ?? ''}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()] ?? ''} ${String(date.getUTCFullYear())} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/** The three `itunes:duration` formats a feed may use, for the same length. */
function durationText(seconds: number, format: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (format === 0) return `${String(h)}:${two(m)}:${two(s)}`;
  if (format === 1) return `${two(h * 60 + m)}:${two(s)}`;
  return String(seconds);
}

/**
 * A SoundCloud-like feed of past shows across the residences, newest first, always the same for
 * the same inputs, with the awkward cases real feeds have: short items under 10 MB (teasers, and
 * one claiming 1 byte), titles without a hyphen or with nothing after it, missing images, the three
 * duration formats, and guids without a track id. Enclosures are the demo replay files, and the
 * durations are theirs, so the player's times match what it plays.
 */
export function buildDemoFeed({
  residences,
  replays,
  anchor,
  count = DEMO_FEED_SIZE,
  seed = 2017,
}: DemoFeedOptions): DemoFeed {
  const next = random(seed);
  // Every residence gets its turn: a seeded order, repeated.
  const order = residences.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const residenceOf = (i: number) => residences[order[i % order.length] ?? 0] ?? residences[0];
  const episodes = new Map<string, number>();
  const numbers: number[] = [];
  for (let i = count - 1; i >= 0; i -= 1) {
    const residence = residenceOf(i);
    const n = (episodes.get(residence?.id ?? '') ?? 0) + 1;
    episodes.set(residence?.id ?? '', n);
    numbers[i] = n;
  }

  const day = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate());
  const tracks = new Map<string, string>();
  const links = new Set<string>();
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i += 1) {
    const residence = residenceOf(i);
    if (residence === undefined || replays.length === 0) break;
    const replay = replays[(i + (order[i % order.length] ?? 0)) % replays.length] ?? replays[0];
    if (replay === undefined) break;
    const number = numbers[i] ?? 1;
    // One show an evening, going back a day at a time, between 18:00 and 23:00 UTC.
    const date = new Date(day - (i + 1) * 86_400_000 + (18 + Math.floor(next() * 5)) * 3_600_000);
    const id = 1_900_000_000 - i * 7919;
    const styles = residence.styles.slice(0, 3).join(', ') || 'sélection libre';
    let description = `${residence.show} : ${styles}. Enregistré au studio du collectif, à Toulouse.`;
    let title = `${residence.artist} - ${residence.show} #${String(number)}`;
    let length = 40_000_000 + Math.floor(next() * 140_000_000);
    let guid = `tag:soundcloud,2010:tracks/${String(id)}`;
    let image: string | undefined = residence.cover;
    if (i % 9 === 4) {
      title = `${residence.artist} - Teaser ${residence.show}`;
      length = 1_000_000 + Math.floor(next() * 8_000_000);
    }
    if (i === 22) length = 1;
    if (i % 11 === 6) title = `${residence.show} : session spéciale avec ${residence.artist}`;
    if (i % 17 === 12) {
      title = `${residence.artist} -`;
      description = `${residence.show}, épisode ${String(number)} : ${styles}.`;
    }
    if (i % 7 === 3) image = undefined;
    if (i % 13 === 8) guid = `tag:collectif-garonne,2017:emission/${String(id)}`;

    let link = `${siteConfig.links.soundcloud}/${slug(title) || 'emission'}`;
    if (links.has(link)) link = `${link}-${String(id)}`;
    links.add(link);
    const url = demoReplayUrl(replay.name);
    if (guid.includes('tracks/')) tracks.set(`soundcloud:tracks:${String(id)}`, url);
    items.push({
      guid: { '@_isPermaLink': 'false', '#text': xmlSafe(guid) },
      title: xmlSafe(title),
      pubDate: rfc822(date),
      link: xmlSafe(link),
      'itunes:duration': durationText(replay.seconds, i % 3),
      'itunes:author': xmlSafe(residence.artist),
      'itunes:explicit': 'no',
      'itunes:summary': xmlSafe(description),
      description: xmlSafe(description),
      enclosure: { '@_type': 'audio/mpeg', '@_length': String(length), '@_url': xmlSafe(url) },
      ...(image === undefined ? {} : { 'itunes:image': { '@_href': xmlSafe(image) } }),
    });
  }

  // Written by the site's one XML builder (src/files/xml.ts), as the site's own feeds are.
  const xml = writeXml({
    rss: {
      '@_version': '2.0',
      '@_xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        'atom:link': { '@_href': '/api/soundcloud-rss', '@_rel': 'self', '@_type': 'application/rss+xml' },
        title: xmlSafe(siteConfig.name),
        link: xmlSafe(siteConfig.links.soundcloud),
        description: xmlSafe(`Les émissions passées de la radio : ${siteConfig.baseline}.`),
        language: 'fr',
        'itunes:author': xmlSafe(siteConfig.name),
        'itunes:image': { '@_href': '/assets/images/default-cover.webp' },
        item: items,
      },
    },
  });
  return { xml, tracks };
}
