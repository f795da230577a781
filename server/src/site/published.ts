import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { hrefOf, PAGES, pagePattern } from '@collectif/shared/addresses';
import type { SiteServerConfig } from '../settings/config';
import { residenceFeed } from './published/rss';
import { currentResidences } from '../content/residences';
import { catalogueVersion } from '../episodes/catalogue';
import { robotsTxt, sitemap } from './published/sitemap';
import { webManifest } from './published/manifest';

/**
 * What the site offers beside its pages (docs/published.md): a podcast feed per residence
 * (published/rss.ts), the sitemap and robots.txt (published/sitemap.ts), the web app manifest
 * (published/manifest.ts) and the events' calendar, `/evenements.ics` (the same file as
 * /api/events.ics, docs/events.md). Each is made from the feed's catalogue (or the declared pages,
 * or the events) once per version, and answered as every /api answer is: `reply.representation`
 * (api/plugins/representations.ts), with its ETag, or 304.
 */

interface PublishedOptions {
  config: SiteServerConfig;
}

const published: FastifyPluginCallback<PublishedOptions> = (app, { config }, done) => {
  // The residences as volunteers last saved them (docs/content.md): a new one has its feed at once.
  const origin = config.siteOrigin;
  // As the pages (docs/rendering.md, « Cache »): browsers revalidate with the ETag, shared caches keep 10 s.
  const cacheControl = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';
  // One text per key (a version of the feed, of the pages), made once.
  const send = (reply: FastifyReply, key: string, type: string, make: () => string) =>
    reply.representation(`site|${key}`, make, { type, cacheControl });

  app.get<{ Params: { id: string } }>('/residences/:id/feed.xml', async (request, reply) => {
    const { version: saved, residences } = currentResidences(app.content);
    const residence = residences.find((candidate) => candidate.id === request.params.id);
    if (residence === undefined) {
      return reply
        .code(404)
        .header('Cache-Control', 'no-cache')
        .type('text/plain; charset=utf-8')
        .send('Flux introuvable : cette résidence n’existe pas.');
    }
    const [catalogue, { pages, version }] = await Promise.all([app.sources.episodes.get(), app.sitePages()]);
    const own = catalogue.value.episodes.filter((episode) => episode.residences.includes(residence.id));
    // Each episode with a tracklist names its chapters file (docs/tracklists.md, « Chapters »).
    const chapters = (slug: string) =>
      catalogue.value.hasTracklist(slug) ? `/api/episodes/${slug}/chapters.json` : undefined;
    return send(
      reply,
      `feed|${residence.id}|${saved}|${catalogueVersion(catalogue)}|${version}`,
      'application/rss+xml; charset=utf-8',
      () => residenceFeed(residence, own, origin, new Date(app.clock()), hrefOf(pages), chapters),
    );
  });

  app.get('/sitemap.xml', async (_request, reply) => {
    const [artists, { pages, version }, events] = await Promise.all([
      // The played artists' index holds the catalogue it was made with (docs/artists.md); with the
      // feed down and no index yet, the sitemap lists what does not need it (docs/api.md, « What an
      // answer depends on »).
      app.playedArtists.get().catch(() => null),
      app.sitePages(),
      // The events' pages, when their calendars were ever read (the sitemap does not wait for them otherwise).
      app.eventsBook.read().catch(() => null),
    ]);
    const reading = events?.reading;
    const { version: saved, residences } = currentResidences(app.content);
    if (artists === null) {
      return reply
        .header('cache-control', 'no-store')
        .type('application/xml; charset=utf-8')
        .send(sitemap(pages, residences, [], origin, reading?.events ?? [], []));
    }
    return send(
      reply,
      `sitemap|${saved}|${artists.key}|${version}|${reading?.key ?? ''}`,
      'application/xml; charset=utf-8',
      () =>
        sitemap(
          pages,
          residences,
          artists.catalogue.value.episodes,
          origin,
          reading?.events ?? [],
          artists.value.indexed(),
        ),
    );
  });

  // The events to subscribe to, at an address of the site's own: the same file, ETag and caching as
  // GET /api/events.ics (the same key), a fixed route of the server, not a page.
  app.get('/evenements.ics', async (_request, reply) => {
    const unavailable = () =>
      reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Les évènements sont indisponibles pour le moment. Réessayez dans un instant.');
    let text: string;
    let key: string;
    let read: Awaited<ReturnType<typeof app.eventsBook.read>>;
    try {
      read = await app.eventsBook.read();
      const path = pagePattern((await app.sitePages()).pages, PAGES.event);
      text = await app.eventsBook.subscription(read.reading, { origin, eventPath: path });
      key = `events.ics|${read.reading.key}|${path ?? ''}|${origin}`;
    } catch (error) {
      app.log.warn(`/evenements.ics : ${error instanceof Error ? error.message : String(error)}`);
      return unavailable();
    }
    reply.header('Content-Disposition', 'inline; filename="evenements.ics"');
    return reply.representation(key, () => text, {
      type: 'text/calendar; charset=utf-8',
      ...app.eventsBook.answered(read),
    });
  });

  app.get('/robots.txt', (_request, reply) =>
    send(reply, 'robots', 'text/plain; charset=utf-8', () => robotsTxt(origin)),
  );

  // Its shortcut's address follows the table of pages.
  app.get('/manifest.webmanifest', async (_request, reply) => {
    const { pages, version } = await app.sitePages();
    return send(reply, `manifest|${version}`, 'application/manifest+json; charset=utf-8', () =>
      JSON.stringify(webManifest(hrefOf(pages))),
    );
  });
  done();
};

export const publishedPlugin = fp(published, {
  name: 'site-published',
  dependencies: ['sources', 'events-book', 'representations', 'site-pages'],
});
