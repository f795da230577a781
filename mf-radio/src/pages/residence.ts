// mf-radio's residence page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { api, siteConfig, type PageDefinition } from '@collectif/shared';
import { oembedAlternate, oembedTitle } from '@collectif/shared/oembed';
import { PAGE_IMAGE_SIZES, residencePictures } from '@collectif/shared/pictures';
import { broadcastEvents, describe, radioSeries } from '@collectif/shared/seo';
import { nextShowOf, residenceScheduleArgs } from '../schedule/NextShow';
import { residenceEventsArgs } from '../events/ResidenceEvents';
import { loadResidence, selectResidence } from '../residences/residences';
import { residenceFeedPath } from '@collectif/shared/addresses';
import { PAGES } from '@collectif/shared/addresses';
import { selectScheduleArrival, zonedIso } from '@collectif/shared/schedule';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

export const residence: PageDefinition = {
  // Its header image, as src/exposed/ResidencePage.tsx renders it; an unknown residence has none.
  preloads: ({ params, state }) => {
    const found = selectResidence(params.id ?? '', state).residence;
    return found === undefined || found === null
      ? []
      : [
          {
            href: residencePictures(found).header,
            ...(residencePictures(found).headerSrcSet === undefined
              ? {}
              : { imagesrcset: residencePictures(found).headerSrcSet }),
            imagesizes: PAGE_IMAGE_SIZES,
            fetchpriority: 'high',
          },
        ];
  },
  // The residence first (the address names it), then its episodes, shows and events.
  load: ({ params, dispatch }) => {
    const residence = loadResidence(params.id ?? '', dispatch);
    const rest = residence.then(({ data: found }) => {
      if (found === undefined || found === null) return [];
      const queries = [
        dispatch(api.endpoints.podcasts.initiate({ q: found.artist })),
        dispatch(api.endpoints.schedule.initiate(residenceScheduleArgs(found.id, Date.now()))),
        dispatch(api.endpoints.events.initiate(residenceEventsArgs(found.id))),
      ];
      return Promise.allSettled(queries).finally(() => {
        for (const query of queries) query.unsubscribe();
      });
    });
    return [residence, rest];
  },
  head: ({ params, state, origin, href }) => {
    // A residence that could not be had is not said unknown: no 404 (the page says why).
    const { residence: found, failed } = selectResidence(params.id ?? '', state);
    if (failed || found === undefined) return {};
    if (found === null) {
      return {
        status: 404,
        title: 'Résidence introuvable · Résidences',
        description: "Cette émission n'existe pas ou n'est plus à l'antenne.",
      };
    }
    const episodes = api.endpoints.podcasts.select({ q: found.artist })(state).data ?? [];
    // Its own address in the page table (this page is rendered, so the table has it).
    const path = href(PAGES.residence, { id: found.id }) ?? '/';
    const url = absolute(origin, path);
    const image = absolute(origin, residencePictures(found).header);
    const description = describe(found.description) || `${found.show} : émission résidente de ${found.artist}.`;
    // The instant its schedule arrived: the server's and the browser's heads agree.
    const now = selectScheduleArrival(state) ?? Date.now();
    const schedule = api.endpoints.schedule.select(residenceScheduleArgs(found.id, now))(state).data;
    const next = schedule === undefined ? null : nextShowOf(schedule.events, now);
    return {
      title: `${found.artist} · ${found.show} · Résidences`,
      description,
      image: { url: image, alt: `${found.artist}, ${found.show}`, width: 1600, height: 600 },
      ogType: 'music.radio_station',
      // Its podcast feed, for feed readers and podcast apps that look at the page (docs/feeds.md).
      alternates: [
        {
          type: 'application/rss+xml',
          title: `${found.artist} · ${found.show} (podcast)`,
          href: absolute(origin, residenceFeedPath(found.id)),
        },
        // Its player, for sites that embed a pasted link (docs/embed.md, « oEmbed »).
        oembedAlternate(origin, path, oembedTitle(siteConfig.name, found)),
      ],
      jsonLd: [
        radioSeries({
          name: found.show,
          url,
          description,
          image,
          artist: found.artist,
          episodes: episodes.map((episode) => ({
            title: episode.artist,
            description: episode.show,
            url: episode.url,
            link: episode.link,
            duration: episode.duration,
            cover: episode.cover,
            pubDate: episode.pubDate,
          })),
        }),
        // Its next show, for search engines (schema.org's BroadcastEvent).
        ...broadcastEvents(
          next === null
            ? []
            : [
                {
                  name: next.title,
                  startDate: zonedIso(next.start),
                  endDate: zonedIso(next.end),
                  url,
                  station: { name: siteConfig.name, url: absolute(origin, '/') },
                },
              ],
        ),
      ],
    };
  },
};
