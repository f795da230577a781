import type { PodcastItem } from '@collectif/shared';
import { assignSlugs, baseSlug, longSlug, slugify, withEpisodeFacts } from './episodes';
import { isSlug } from '@collectif/shared/addresses';

const item = (link: string, pubDate: string | null, extra: Partial<PodcastItem> = {}): PodcastItem => ({
  url: `https://feeds.example.org/${link.length}.mp3`,
  duration: 3600,
  artist: 'Axonberg',
  show: 'Synapses #1',
  cover: '',
  link,
  pubDate,
  ...extra,
});

describe('episode slugs', () => {
  it("take the permalink's last segment, in lower-case ASCII words", () => {
    expect(baseSlug(item('https://soundcloud.com/collectif/Nuit-Électro_à-Toulouse/', null))).toBe(
      'nuit-electro-a-toulouse',
    );
  });

  it('fall back to the track id, then to a fingerprint of the audio address', () => {
    expect(baseSlug(item('', null, { trackUrn: 'soundcloud:tracks:123' }))).toBe('piste-123');
    const fromUrl = baseSlug(item('pas une adresse', null, { url: 'https://a.example/b.mp3' }));
    expect(fromUrl).toMatch(/^emission-[a-z0-9]+$/);
    expect(baseSlug(item('pas une adresse', null, { url: 'https://a.example/b.mp3' }))).toBe(fromUrl);
  });

  it('never carry HTML, dots or slashes from hostile links, and stay short', () => {
    const hostile = [
      'https://x.example/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      'https://x.example/..%2F..%2Fetc%2Fpasswd',
      'https://x.example/%E0%A4%A',
      `https://x.example/${'a'.repeat(500)}`,
      'javascript:alert(1)',
    ];
    for (const link of hostile) {
      const slug = baseSlug(item(link, null));
      expect(isSlug(slug)).toBe(true);
      expect(slug.length).toBeLessThanOrEqual(80);
    }
    expect(baseSlug(item(hostile[0] ?? '', null))).toBe('script-alert-1-script');
  });

  it('are unique: the oldest keeps the slug, a newer item asking for it gets its long form', () => {
    const old = item('https://soundcloud.com/c/show', '2026-01-01T20:00:00Z');
    const newer = item('https://other.example/c/show', '2026-02-01T20:00:00Z');
    const slugs = assignSlugs([newer, old]);
    expect(slugs.get(old.link)).toBe('show');
    expect(slugs.get(newer.link)).toBe(longSlug(newer));
    expect(new Set(slugs.values()).size).toBe(2);
  });

  it('do not change when the feed grows with newer items', () => {
    const feed = Array.from({ length: 30 }, (_, i) =>
      item(`https://soundcloud.com/c/show-${String(i % 10)}`, `2026-01-${String(i + 1).padStart(2, '0')}T20:00:00Z`, {
        url: `https://a.example/${String(i)}.mp3`,
      }),
    );
    // Links repeat every 10 items: same link, same item for the rules (de-duplicated by link).
    const before = assignSlugs(feed.slice(0, 20));
    const grown = [
      item('https://soundcloud.com/c/show-1', '2026-03-01T20:00:00Z'),
      item('https://x.example/c/show-2', '2026-03-02T20:00:00Z'),
      ...feed.slice(0, 20),
    ];
    const after = assignSlugs(grown);
    for (const [link, slug] of before) expect(after.get(link)).toBe(slug);
  });

  it('tell a slug from anything else', () => {
    expect(isSlug('axonberg-synapses-12')).toBe(true);
    for (const text of ['', '../x', '<b>', 'Majuscule', '-x', 'x-', 'a'.repeat(121), 'a/b']) {
      expect(isSlug(text)).toBe(false);
    }
    expect(slugify(' Çà et là ! ')).toBe('ca-et-la');
  });
});

describe('episode facts', () => {
  it("give an episode the residences it names (each name of 'A / B') and their styles, once each", () => {
    const residences = [
      { id: 'kalibre-mona-vex', artist: 'Kalibre / Mona Vex', styles: ['jungle', ' dub '] },
      { id: 'capitole', artist: 'Capitole Sound', styles: ['dub', ''] },
    ];
    const [episode] = withEpisodeFacts(
      [item('https://s.example/1', null, { artist: 'Mona Vex', show: 'avec Capitole Sound' })],
      residences,
    );
    expect(episode?.residences).toEqual(['kalibre-mona-vex', 'capitole']);
    expect(episode?.styles).toEqual(['jungle', 'dub']);
  });
});
