/** RSS documents shaped like SoundCloud's user feed (see UPSTREAMS.md), for fake upstreams. */

export interface FeedItemSpec {
  id: number;
  title: string;
  length?: number;
  pubDate?: string;
  duration?: string;
  image?: string | null;
}

export function rssItem({
  id,
  title,
  length = 140_234_567,
  pubDate,
  duration = '02:26:06',
  image,
}: FeedItemSpec): string {
  const cover =
    image === null
      ? ''
      : `<itunes:image href="${image ?? `https://i1.sndcdn.com/artworks-${String(id)}-t3000x3000.jpg`}"/>`;
  return `<item>
  <guid isPermaLink="false">tag:soundcloud,2010:tracks/${String(id)}</guid>
  <title>${title}</title>
  <pubDate>${pubDate ?? 'Wed, 04 Mar 2026 18:00:00 +0000'}</pubDate>
  <link>https://soundcloud.com/collective/show-${String(id)}</link>
  <itunes:duration>${duration}</itunes:duration>
  <itunes:author>Collectif</itunes:author>
  <description>Description ${String(id)}</description>
  <enclosure type="audio/mpeg" length="${String(length)}" url="https://feeds.soundcloud.com/stream/${String(id)}-collective-show.mp3"/>
  ${cover}
</item>`;
}

export function rssFeed(items: string[], next?: string): string {
  const nextLink = next === undefined ? '' : `<atom:link href="${next}" rel="next" type="application/rss+xml"/>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>Collectif &amp; amis</title>
${nextLink}
${items.join('\n')}
</channel>
</rss>`;
}
