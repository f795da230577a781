import type { FastifyInstance } from 'fastify';
import type { ApiError, PodcastItem } from '@collectif/shared';
import { DEFAULT_COVER } from '../feed';
import { buildApi, testConfig } from './testing/fixtures';
import { startFakeUpstream, type FakeUpstream } from './testing/fake-upstream';
import { rssItem } from './testing/feeds';

// What real podcast feeds do that the first fake feeds did not (docs/feed.md): numeric character
// references, text before `<?xml`, encodings other than UTF-8, hyphenated names, a picture only on
// the channel, absurd durations. Each feed is served over HTTP by a fake upstream on loopback.

let fake: FakeUpstream;
let app: FastifyInstance | undefined;

beforeEach(async () => {
  fake = await startFakeUpstream();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await fake.close();
});

const CHANNEL_IMAGE = 'https://i1.sndcdn.com/avatars-000123-t3000x3000.jpg';

function channel(items: string[], options: { prolog?: string; declaration?: string; image?: boolean } = {}): string {
  const declaration = options.declaration ?? '<?xml version="1.0" encoding="UTF-8"?>';
  const image = options.image === true ? `<itunes:image href="${CHANNEL_IMAGE}"/>` : '';
  return `${options.prolog ?? ''}${declaration}
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel>
<title>Collectif</title>
${image}
${items.join('\n')}
</channel>
</rss>`;
}

/** Serves `body` (bytes as given) at /sounds.rss with this Content-Type. */
function serve(body: Buffer | string, contentType = 'application/rss+xml') {
  fake.on('/sounds.rss', (_request, response) => {
    response.writeHead(200, { 'content-type': contentType }).end(body);
  });
}

async function start(): Promise<FastifyInstance> {
  app = await buildApi({
    config: testConfig({
      rss: { url: `${fake.url}/sounds.rss`, maxPages: 1 },
      upstream: { timeoutMs: 2000, maxBytes: 1024 * 1024 },
    }),
  });
  return app;
}

async function podcasts(query = ''): Promise<PodcastItem[]> {
  const server = app ?? (await start());
  const res = await server.inject({ url: `/api/podcasts${query}` });
  expect(res.statusCode).toBe(200);
  return res.json<PodcastItem[]>();
}

describe('character references (item 3)', () => {
  it('decodes numeric references in titles and descriptions, once, and keeps markup as text', async () => {
    serve(
      channel([
        rssItem({ id: 1, title: 'Mila Rose - It&#8217;s a dub thing &#x2014; live' }),
        rssItem({ id: 2, title: 'Sans s&#233;parateur' }).replace(
          '<description>Description 2</description>',
          '<description>we&#039;re back &amp; &lt;b&gt;loud&lt;/b&gt; &#169; &amp;#039;</description>',
        ),
      ]),
    );
    expect((await podcasts()).map((p) => [p.artist, p.show])).toEqual([
      ['Mila Rose', 'It’s a dub thing — live'],
      // `&amp;#039;` is the text « &#039; »: decoded once, not twice.
      ['Sans séparateur', "we're back & <b>loud</b> © &#039;"],
    ]);
  });

  it('still does not expand entities a feed declares in its DOCTYPE', async () => {
    const items = [rssItem({ id: 3, title: 'A - &x;&x;' })];
    const body = channel(items).replace(
      '<rss version',
      '<!DOCTYPE rss [<!ENTITY y "yyyyyyyyyyyyyyyyyyyy"><!ENTITY x "&y;&y;&y;&y;&y;&y;&y;&y;&y;&y;">]>\n<rss version',
    );
    serve(body);
    const server = await start();
    const res = await server.inject({ url: '/api/podcasts' });
    expect(res.statusCode).toBe(200);
    expect(res.json<PodcastItem[]>()[0]?.show).toBe('&x;&x;');
  });
});

describe('text before the XML declaration (item 4)', () => {
  it.each([
    ['a newline', '\n'],
    ['white space and blank lines', ' \r\n\t\n'],
    ['a byte order mark', '\uFEFF'],
    ['a byte order mark and a newline', '\uFEFF\n'],
  ])('accepts %s before <?xml', async (_name, prolog) => {
    serve(channel([rssItem({ id: 4, title: 'Ozone - Dub station #9' })], { prolog }));
    expect((await podcasts()).map((p) => p.artist)).toEqual(['Ozone']);
    const rss = await (app as FastifyInstance).inject({ url: '/api/soundcloud-rss' });
    expect(rss.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});

describe('feeds not in UTF-8 (item 5)', () => {
  /** The text in a one-byte encoding: each character stands for its byte (« \xe9 » is 0xE9). */
  const bytes = (text: string) => Buffer.from(text, 'latin1');

  it.each([
    // ISO-8859-1 named by the declaration only; the header names no charset.
    [
      'ISO-8859-1',
      '<?xml version="1.0" encoding="ISO-8859-1"?>',
      'application/rss+xml',
      'Caf\xe9 Cr\xe8me - S\xe9ance \xe0 l\x27aube',
      'Café Crème',
      "Séance à l'aube",
    ],
    // ISO-8859-2 (Polish): Ł 0xA3, ó 0xF3, ź 0xBC, ę 0xEA, ś 0xB6.
    [
      'ISO-8859-2',
      "<?xml version='1.0' encoding='iso-8859-2'?>",
      'text/xml',
      '\xa3\xf3d\xbc - Pi\xeak\xb6',
      'Łódź',
      'Piękś',
    ],
    // windows-1251 (Cyrillic) named by the header, the declaration naming none: Д 0xC4, у 0xF3, б 0xE1.
    [
      'windows-1251',
      '<?xml version="1.0"?>',
      'application/rss+xml; charset=windows-1251',
      '\xc4\xf3\xe1 - \xc4\xf3\xe1',
      'Дуб',
      'Дуб',
    ],
  ])(
    'decodes %s and serves the feed again in UTF-8, saying so',
    async (_name, declaration, type, title, artist, show) => {
      serve(bytes(channel([rssItem({ id: 5, title })], { declaration })), type);
      const [item] = await podcasts();
      expect([item?.artist, item?.show]).toEqual([artist, show]);
      const rss = await (app as FastifyInstance).inject({ url: '/api/soundcloud-rss' });
      expect(rss.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(rss.body).toMatch(/^<\?xml version=["']1\.0["']( encoding=["']UTF-8["'])?\?>/);
      expect(rss.body).not.toMatch(/encoding=["'](?!UTF-8)/i);
      expect(rss.body).toContain(`${artist} - ${show}`);
      expect(rss.body).not.toContain('\uFFFD');
    },
  );

  it('answers the French 502 for an encoding nobody knows', async () => {
    serve(channel([rssItem({ id: 6, title: 'A - B' })], { declaration: '<?xml version="1.0" encoding="x-martien"?>' }));
    const server = await start();
    const res = await server.inject({ url: '/api/podcasts' });
    expect(res.statusCode).toBe(502);
    expect(res.json<ApiError>()).toEqual({
      error: 'upstream_invalid',
      message: expect.stringContaining('encodage inconnu « x-martien »') as string,
    });
  });
});

describe('titles, covers and durations (items 6 to 8)', () => {
  it('keeps a hyphenated name whole, so its residence finds its shows', async () => {
    serve(
      channel([rssItem({ id: 7, title: 'Basse-Cour - Nuit dub' }), rssItem({ id: 8, title: 'Ozone-Dub station' })]),
    );
    expect((await podcasts()).map((p) => [p.artist, p.show])).toEqual([
      ['Basse-Cour', 'Nuit dub'],
      ['Ozone', 'Dub station'],
    ]);
    expect((await podcasts('?q=Basse-Cour')).map((p) => p.artist)).toEqual(['Basse-Cour']);
  });

  it('gives an item without a picture the channel’s itunes:image, then the default cover', async () => {
    serve(
      channel([rssItem({ id: 9, title: 'A - sans image', image: null }), rssItem({ id: 10, title: 'B - avec' })], {
        image: true,
      }),
    );
    expect((await podcasts()).map((p) => p.cover)).toEqual([
      CHANNEL_IMAGE,
      'https://i1.sndcdn.com/artworks-10-t3000x3000.jpg',
    ]);
    await app?.close();
    app = undefined;
    serve(channel([rssItem({ id: 9, title: 'A - sans image', image: null })]));
    expect((await podcasts()).map((p) => p.cover)).toEqual([DEFAULT_COVER]);
  });

  it('gives a finite duration: 0 for a 400-digit itunes:duration, never null', async () => {
    serve(channel([rssItem({ id: 11, title: 'A - B', duration: '9'.repeat(400) })]));
    const server = await start();
    const res = await server.inject({ url: '/api/podcasts' });
    expect(res.body).toContain('"duration":0');
    expect(res.json<PodcastItem[]>()[0]?.duration).toBe(0);
  });
});
