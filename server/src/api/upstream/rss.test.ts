import { UpstreamError } from '../../http/errors';
import { startFakeUpstream, text, type FakeUpstream } from '../testing/fake-upstream';
import { rssFeed, rssItem } from '../testing/feeds';
import { feedData, nextPageUrl, parseFeedXml, rssLoader } from './rss';

let fake: FakeUpstream;
const limits = { timeoutMs: 1000, maxBytes: 1024 * 1024 };

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());

describe('parseFeedXml', () => {
  it('gives rss.channel.item[] with attributes under _attributes', () => {
    const { items } = parseFeedXml(rssFeed([rssItem({ id: 244374452, title: 'Artist Name - Show title #12' })]));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      guid: { '#text': 'tag:soundcloud,2010:tracks/244374452', _attributes: { isPermaLink: 'false' } },
      title: 'Artist Name - Show title #12',
      'itunes:duration': '02:26:06',
      enclosure: { _attributes: { length: '140234567', type: 'audio/mpeg' } },
    });
  });

  it('keeps numeric-looking values as text', () => {
    const { items } = parseFeedXml(rssFeed([rssItem({ id: 1, title: '2024', duration: '5400' })]));
    expect(items[0]).toMatchObject({ title: '2024', 'itunes:duration': '5400' });
  });

  it('rejects malformed XML with the line of the problem', () => {
    const broken = rssFeed([rssItem({ id: 1, title: 'A - B' })]).replace('</item>', '</itme>');
    expect(() => parseFeedXml(broken)).toThrow(UpstreamError);
    expect(() => parseFeedXml(broken)).toThrow(/invalid \(XML mal formé, ligne \d+/);
  });

  it('rejects a document that is not RSS', () => {
    expect(() => parseFeedXml('<html><body>Maintenance</body></html>')).toThrow(/pas de rss.channel/);
  });
});

describe('feedData', () => {
  it('maps the podcasts and can leave track URNs out', () => {
    const xml = rssFeed([rssItem({ id: 7, title: 'A - B' }), rssItem({ id: 8, title: 'Jingle', length: 5000 })]);
    const { items } = parseFeedXml(xml);
    expect(feedData(xml, items, true).podcasts).toEqual([expect.objectContaining({ trackUrn: 'soundcloud:tracks:7' })]);
    expect(feedData(xml, items, false).podcasts[0]).not.toHaveProperty('trackUrn');
  });
});

describe('nextPageUrl', () => {
  it('follows rel="next" only on the feed origin', () => {
    const own = parseFeedXml(rssFeed([], 'https://feeds.example/users/1/sounds.rss?before=99')).document;
    const other = parseFeedXml(rssFeed([], 'https://evil.example/feed')).document;
    expect(nextPageUrl(own, 'https://feeds.example/users/1/sounds.rss')).toBe(
      'https://feeds.example/users/1/sounds.rss?before=99',
    );
    expect(nextPageUrl(other, 'https://feeds.example/users/1/sounds.rss')).toBeUndefined();
  });
});

describe('rssLoader', () => {
  it('reads one page by default and serves its XML as is', async () => {
    const xml = rssFeed([rssItem({ id: 1, title: 'A - One' })], `${fake.url}/page2.rss`);
    fake.on('/one.rss', text(200, xml));
    const data = await rssLoader({ url: `${fake.url}/one.rss`, maxPages: 1 }, limits, true)();
    expect(data.xml).toBe(xml);
    expect(fake.count('/page2.rss')).toBe(0);
  });

  it('merges older pages up to maxPages, without duplicates, into one feed', async () => {
    fake.on(
      '/p1.rss',
      text(
        200,
        rssFeed([rssItem({ id: 3, title: 'C - 3' }), rssItem({ id: 2, title: 'B - 2' })], `${fake.url}/p2.rss`),
      ),
    );
    fake.on(
      '/p2.rss',
      text(
        200,
        rssFeed([rssItem({ id: 2, title: 'B - 2' }), rssItem({ id: 1, title: 'A - 1' })], `${fake.url}/p3.rss`),
      ),
    );
    fake.on('/p3.rss', text(200, rssFeed([rssItem({ id: 0, title: 'Z - 0' })])));
    const data = await rssLoader({ url: `${fake.url}/p1.rss`, maxPages: 2 }, limits, true)();
    expect(data.podcasts).toHaveLength(3);
    expect(fake.count('/p3.rss')).toBe(0);
    const reparsed = parseFeedXml(data.xml);
    expect(reparsed.items.map((i) => i.title)).toEqual(['C - 3', 'B - 2', 'A - 1']);
  });

  it('fails on an HTTP error of the feed host', async () => {
    fake.on('/gone.rss', text(503, 'maintenance', 'text/plain'));
    await expect(rssLoader({ url: `${fake.url}/gone.rss`, maxPages: 1 }, limits, true)()).rejects.toMatchObject({
      failure: 'status',
      status: 503,
    });
  });
});
