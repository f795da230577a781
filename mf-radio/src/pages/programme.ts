// mf-radio's programme page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { api, selectScheduleArrival, siteConfig, zonedIso, type PageDefinition } from '@collectif/shared';
import { broadcastEvents } from '@collectif/shared/seo';
import { PAGES } from '@collectif/shared/addresses';
import { readWeek, weekArgs, weekLabel, weekSearch } from '../schedule/week';

const absolute = (origin: string, path: string) => new URL(path, origin).href;
/** The shows of a week given to search engines, at most. */
const MAX_BROADCASTS = 80;

export const programme: PageDefinition = {
  load: ({ query, dispatch }) => {
    const week = readWeek(query, Date.now());
    return week?.known === true ? [dispatch(api.endpoints.schedule.initiate(weekArgs(week.monday)))] : [];
  },
  head: ({ query, state, origin, href }) => {
    // The week of the schedule the page was given: the server's and the browser's heads agree.
    const week = readWeek(query, selectScheduleArrival(state) ?? Date.now());
    if (week === null || !week.known) {
      return {
        status: 404,
        title: 'Semaine introuvable · Programme',
        description: "Le programme de cette semaine n'est pas connu.",
      };
    }
    const events = api.endpoints.schedule.select(weekArgs(week.monday))(state).data?.events ?? [];
    const station = { name: siteConfig.name, url: absolute(origin, href(PAGES.home) ?? '/') };
    const canonicalPath = href(PAGES.programme, {}, weekSearch(week.monday, week.current));
    const programmePath = href(PAGES.programme) ?? '/';
    return {
      ...(week.monday === week.current ? {} : { title: `Programme de la semaine ${weekLabel(week.monday)}` }),
      description: `Les émissions de ${siteConfig.name} ${weekLabel(week.monday)}, heures de Paris : résidences, invités, direct.`,
      ...(canonicalPath === null ? {} : { canonicalPath }),
      jsonLd: broadcastEvents(
        events
          .filter((event) => !event.allDay)
          .slice(0, MAX_BROADCASTS)
          .map((event) => ({
            name: event.title,
            startDate: zonedIso(event.start),
            endDate: zonedIso(event.end),
            url: absolute(
              origin,
              (event.residence === null ? null : href(PAGES.residence, { id: event.residence })) ?? programmePath,
            ),
            station,
          })),
      ),
    };
  },
};
