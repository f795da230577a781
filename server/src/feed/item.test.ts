import { channelImage, feedItems, isRssDocument, nodeAttribute, nodeText } from './item';

describe('nodeText', () => {
  it('reads plain text, text beside attributes, and numbers', () => {
    expect(nodeText(' Titre ')).toBe('Titre');
    expect(nodeText({ '#text': 'tag:soundcloud,2010:tracks/1', _attributes: { isPermaLink: 'false' } })).toBe(
      'tag:soundcloud,2010:tracks/1',
    );
    expect(nodeText(5400)).toBe('5400');
    expect(nodeText(undefined)).toBe('');
    expect(nodeText({ _attributes: {} })).toBe('');
  });
});

describe('nodeAttribute', () => {
  it('reads a grouped attribute, or nothing', () => {
    expect(nodeAttribute({ _attributes: { href: ' https://x/a.jpg ' } }, 'href')).toBe('https://x/a.jpg');
    expect(nodeAttribute([{ _attributes: { href: 'first' } }, { _attributes: { href: 'second' } }], 'href')).toBe(
      'first',
    );
    expect(nodeAttribute({ _attributes: {} }, 'href')).toBeUndefined();
    expect(nodeAttribute('text', 'href')).toBeUndefined();
  });
});

describe('feedItems', () => {
  it('gives rss.channel.item[] whether the feed has many, one or no items', () => {
    expect(feedItems({ rss: { channel: { item: [{ title: 'a' }, { title: 'b' }] } } })).toHaveLength(2);
    expect(feedItems({ rss: { channel: { item: { title: 'a' } } } })).toEqual([{ title: 'a' }]);
    expect(feedItems({ rss: { channel: {} } })).toEqual([]);
    expect(feedItems({ html: {} })).toEqual([]);
    expect(feedItems(null)).toEqual([]);
  });

  it('recognises an RSS document', () => {
    expect(isRssDocument({ rss: { channel: {} } })).toBe(true);
    expect(isRssDocument({ rss: 'x' })).toBe(false);
  });
});

describe('channelImage', () => {
  it('reads the channel itunes:image, else the RSS image url, else nothing', () => {
    const itunes = {
      'itunes:image': { _attributes: { href: ' https://x/channel.jpg ' } },
      image: { url: 'https://x/rss.jpg' },
    };
    expect(channelImage({ rss: { channel: itunes } })).toBe('https://x/channel.jpg');
    expect(channelImage({ rss: { channel: { image: { url: 'https://x/rss.jpg' } } } })).toBe('https://x/rss.jpg');
    expect(channelImage({ rss: { channel: { 'itunes:image': {}, image: 'x' } } })).toBeUndefined();
    expect(channelImage({ rss: { channel: {} } })).toBeUndefined();
    expect(channelImage(null)).toBeUndefined();
  });
});
