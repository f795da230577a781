import type { PodcastItem } from '@collectif/shared';
import { artistNames, latest, mentions, podcastsByName } from './filter';

function podcast(link: string, artist: string, show: string, pubDate: string): PodcastItem {
  return { url: `https://x/${link}.mp3`, duration: 3600, artist, show, cover: '/c.webp', link, pubDate };
}

const items: PodcastItem[] = [
  podcast('p5', 'Axonberg', 'Nuits de basse #5', '2026-03-05T18:00:00.000Z'),
  podcast('p4', 'Mila Rose / Ozone', 'Back to back #2', '2026-03-04T18:00:00.000Z'),
  podcast('p3', 'Ozone', 'Dub station #9', '2026-03-03T18:00:00.000Z'),
  podcast('p2', 'Invité', 'Carte blanche à Mila Rose', '2026-03-02T18:00:00.000Z'),
  podcast('p1', 'Axonberg', 'Nuits de basse #4', '2026-03-01T18:00:00.000Z'),
];

describe('artistNames', () => {
  it('splits on slashes and trims each name', () => {
    expect(artistNames(' Mila Rose /Ozone / ')).toEqual(['Mila Rose', 'Ozone']);
    expect(artistNames('Axonberg')).toEqual(['Axonberg']);
    expect(artistNames(' / ')).toEqual([]);
  });
});

describe('mentions', () => {
  it('looks in the artist and the show lines, whatever the case', () => {
    expect(mentions(items[3]!, 'mila rose')).toBe(true);
    expect(mentions(items[0]!, 'AXONBERG')).toBe(true);
    expect(mentions(items[0]!, 'Ozone')).toBe(false);
  });
});

describe('podcastsByName', () => {
  it('keeps items whose artist or show line contains the name', () => {
    expect(podcastsByName(items, 'Axonberg').map((i) => i.link)).toEqual(['p5', 'p1']);
  });

  it('searches each name of a slash line, without duplicates, newest first', () => {
    expect(podcastsByName(items, 'Ozone / Mila Rose').map((i) => i.link)).toEqual(['p4', 'p3', 'p2']);
  });

  it('finds nothing for a blank name or an unknown artist', () => {
    expect(podcastsByName(items, '  ')).toEqual([]);
    expect(podcastsByName(items, 'Personne')).toEqual([]);
  });
});

describe('latest', () => {
  it('takes the first N items, or all without a limit', () => {
    expect(latest(items, 2).map((i) => i.link)).toEqual(['p5', 'p4']);
    expect(latest(items, undefined)).toHaveLength(5);
    expect(latest(items, 0)).toEqual([]);
  });
});
