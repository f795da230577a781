import { DEFAULT_COVER, feedItems, isPodcast, mapFeedItem, nodeText, parseDuration } from '../../feed';
import { XMLValidator } from 'fast-xml-parser';
import { parseFeedXml } from '../upstream/rss';
import { DEMO_REPLAYS } from './audio';
import { buildDemoFeed, rfc822 } from './feed';
import { FALLBACK_RESIDENCES, loadResidences } from '../../schedule/demo-residences';
import { readApiConfig } from '../env';

const anchor = new Date('2026-03-05T12:00:00Z');
const residences = loadResidences(readApiConfig({}).demo.residencesFile);

describe('buildDemoFeed', () => {
  const feed = buildDemoFeed({ residences, replays: DEMO_REPLAYS, anchor });
  const { items } = parseFeedXml(feed.xml);
  const mapped = items.map((item) => mapFeedItem(item));

  it('is a valid RSS feed of at least 150 past shows, newest first, before the anchor day', () => {
    expect(items.length).toBeGreaterThanOrEqual(150);
    const dates = mapped.map((item) => Date.parse(item.pubDate ?? ''));
    expect(dates.every((date, i) => i === 0 || date < (dates[i - 1] ?? 0))).toBe(true);
    expect(dates[0]).toBeLessThan(Date.parse('2026-03-05T00:00:00Z'));
  });

  it('covers every residence, with titles like "Artist - Show #n"', () => {
    const authors = new Set(items.map((item) => nodeText(item['itunes:author'])));
    for (const residence of residences) expect(authors).toContain(residence.artist);
    const shows = new Set(residences.map((r) => `${r.artist} - ${r.show}`));
    const regular = items.filter((item) => shows.has(nodeText(item.title).replace(/ #\d+$/, '')));
    expect(regular.length).toBeGreaterThan(items.length / 2);
  });

  it('has the awkward cases of real feeds', () => {
    const titles = items.map((item) => nodeText(item.title));
    const durations = items.map((item) => nodeText(item['itunes:duration']));
    expect(items.filter((item) => !isPodcast(item)).length).toBeGreaterThan(10);
    expect(
      items.some((item) => item.enclosure !== undefined && !isPodcast(item) && nodeText(item.title).includes('Teaser')),
    ).toBe(true);
    expect(titles.filter((t) => !t.includes('-')).length).toBeGreaterThan(5);
    expect(titles.some((t) => t.endsWith(' -'))).toBe(true);
    expect(mapped.filter((item) => item.cover === DEFAULT_COVER).length).toBeGreaterThan(10);
    expect(durations.some((d) => /^\d+:\d{2}:\d{2}$/.test(d))).toBe(true);
    expect(durations.some((d) => /^\d{2}:\d{2}$/.test(d))).toBe(true);
    expect(durations.some((d) => /^\d+$/.test(d))).toBe(true);
    expect(mapped.filter((item) => item.trackUrn === undefined).length).toBeGreaterThan(5);
    expect(titles.some((t) => t.includes(' / '))).toBe(true);
  });

  it('announces the real length of the demo files and points at them', () => {
    for (const item of mapped) {
      const replay = DEMO_REPLAYS.find(({ name }) => item.url === `/api/demo/replays/${name}.mp3`);
      expect(replay).toBeDefined();
      expect(item.duration).toBe(replay?.seconds);
    }
  });

  it('resolves each track URN of the feed to its file', () => {
    const withUrn = mapped.filter((item) => item.trackUrn !== undefined);
    expect(feed.tracks.size).toBe(withUrn.length);
    for (const item of withUrn) expect(feed.tracks.get(item.trackUrn ?? '')).toBe(item.url);
  });

  it('is the same for the same inputs', () => {
    expect(buildDemoFeed({ residences, replays: DEMO_REPLAYS, anchor }).xml).toBe(feed.xml);
  });

  it('has unique links, so merged searches never drop a show', () => {
    expect(new Set(mapped.map((item) => item.link)).size).toBe(mapped.length);
  });
});

describe('the demo feed with names no feed should have', () => {
  it('is well-formed XML 1.0 and gives every text back as written, less what XML cannot carry', () => {
    const hostile = { id: 'x', artist: 'Ça & <b>"là"</b>\u0001', show: "]]> l'émi\uFFFEssion", styles: ['dub'] };
    const feed = buildDemoFeed({ residences: [hostile], replays: DEMO_REPLAYS, anchor, count: 3 });
    // Every character one XML 1.0 allows (a control character or U+FFFE makes a strict reader stop).
    expect(feed.xml).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    // The validator the feed reader uses (server/src/api/upstream/rss.ts says why this one).
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    expect(XMLValidator.validate(feed.xml)).toBe(true);
    const [first] = parseFeedXml(feed.xml).items.map((item) => mapFeedItem(item));
    expect(first?.artist).toBe('Ça & <b>"là"</b>');
    expect(first?.show).toBe("]]> l'émission #3");
  });
});

describe('demo residences', () => {
  it('falls back to built-in names when the content file is missing', () => {
    expect(loadResidences('/nonexistent/residences.json')).toBe(FALLBACK_RESIDENCES);
    const feed = buildDemoFeed({ residences: FALLBACK_RESIDENCES, replays: DEMO_REPLAYS, anchor, count: 150 });
    expect(feedItems(parseFeedXml(feed.xml).document)).toHaveLength(150);
  });
});

describe('rfc822', () => {
  it('writes dates as SoundCloud does', () => {
    expect(rfc822(new Date('2026-03-04T18:00:00Z'))).toBe('Wed, 04 Mar 2026 18:00:00 +0000');
    expect(parseDuration('0:01:00')).toBe(60);
  });
});
