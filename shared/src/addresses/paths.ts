import type { RemoteContract, RemoteName } from '../remotes';

/**
 * Addresses of the site's pages, built from the table the remotes declare (docs/parts.md,
 * « Addresses »): a part or the server names a page by the module that renders it, never by its
 * path, so a team that renames its page's route moves every link with it. Stateless helpers, by
 * their own path (`@collectif/shared/addresses`): each part bundles them, and a part built with them
 * runs with any shell.
 */

/** What an address is built from: the table's pages (`PageRef` of `@collectif/shared`). */
export interface AddressedPage {
  path: string;
  remote: string;
  module: string;
}

/**
 * A page named by the module that renders it, as the registry of parts lists it: how a part or the
 * server names a page it links to, never by its path (docs/parts.md, « Addresses »). The table the
 * remotes declare says where the page is today.
 */
export type PageModule = {
  [R in RemoteName]: { remote: R; module: keyof RemoteContract[R] & string };
}[RemoteName];

/** The pages other parts and the server link to, by module. */
export const PAGES = {
  home: { remote: 'radio', module: 'HomePage' },
  programme: { remote: 'radio', module: 'ProgrammePage' },
  events: { remote: 'radio', module: 'EventsPage' },
  /** Parameter: `slug`, the event's. */
  event: { remote: 'radio', module: 'EventPage' },
  residences: { remote: 'radio', module: 'ResidencesPage' },
  /** Parameter: `id`, the residence's. */
  residence: { remote: 'radio', module: 'ResidencePage' },
  /** « Mes résidences »: the residences this browser follows (docs/follow.md); `?suivre=a,b` offers a list. */
  followed: { remote: 'radio', module: 'FollowedPage' },
  episodes: { remote: 'radio', module: 'EpisodesPage' },
  /** Parameter: `slug`, the episode's. */
  episode: { remote: 'radio', module: 'EpisodePage' },
  embed: { remote: 'radio', module: 'EmbedPage' },
  /** The artists the radio played or the label releases, A–Z (docs/site.md); `?page=N`. */
  playedArtists: { remote: 'radio', module: 'PlayedArtistsPage' },
  /** Parameter: `slug`, the played artist's (never an episode's host, who is `artist`). */
  playedArtist: { remote: 'radio', module: 'PlayedArtistPage' },
  label: { remote: 'label', module: 'LabelPage' },
  /** « Proposer une émission » (docs/proposals.md, « The pages »), with `/merci` and `/supprimer` below it. */
  proposeShow: { remote: 'radio', module: 'ProposeShowPage' },
  /** « Envoyer une démo », likewise. */
  sendDemo: { remote: 'label', module: 'SendDemoPage' },
  about: { remote: 'about', module: 'AboutPage' },
  /** « Nous soutenir » (docs/support.md); `?residence=<id>` names a residence in a donation. */
  support: { remote: 'about', module: 'SupportPage' },
  /** Where HelloAsso sends a visitor back, with its query: the payment checked, « Merci ! ». */
  supportReturn: { remote: 'about', module: 'SupportReturnPage' },
  /** The volunteers' editor, and the page an invitation's link opens. */
  admin: { remote: 'admin', module: 'AdminPage' },
  invitation: { remote: 'admin', module: 'InvitationPage' },
} as const satisfies Record<string, PageModule>;

/** A query to add to a page's address: `?a=b` (or without its `?`), or its parameters. */
export type PageSearch = string | URLSearchParams | Readonly<Record<string, string>>;

/** A path pattern with its parameters filled in, each encoded: `fillPath('residences/:id', { id })`. */
export function fillPath(path: string, params: Readonly<Record<string, string | undefined>> = {}): string {
  return `/${path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))}`;
}

/** The path pattern of a page in the table (`residences/:id`), or null when the table has none. */
export function pagePattern(table: readonly AddressedPage[], page: PageModule): string | null {
  return table.find((entry) => entry.remote === page.remote && entry.module === page.module)?.path ?? null;
}

const parameterNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((found) => found[1] ?? '');

/**
 * The address of a page, from the table the remotes declare (docs/parts.md, « Addresses »): the
 * module's path with `params` filled in, then `search` when it has any. A module that serves several
 * paths gives the first one whose parameters are all in `params`. Null when the table has no such
 * page (its remote has not declared it, or is down): the caller shows its text without a link.
 */
export function pageHref(
  table: readonly AddressedPage[],
  page: PageModule,
  params: Readonly<Record<string, string>> = {},
  search?: PageSearch,
): string | null {
  const found = table.find(
    (entry) =>
      entry.remote === page.remote &&
      entry.module === page.module &&
      parameterNames(entry.path).every((name) => params[name] !== undefined && params[name] !== ''),
  );
  if (found === undefined) return null;
  const query = new URLSearchParams(search).toString();
  return `${fillPath(found.path, params)}${query === '' ? '' : `?${query}`}`;
}

/** `pageHref` bound to one table: what pages and parts are given (`usePageHref`, `PageContext.href`). */
export type HrefOf = (
  page: PageModule,
  params?: Readonly<Record<string, string>>,
  search?: PageSearch,
) => string | null;

export const hrefOf =
  (table: readonly AddressedPage[]): HrefOf =>
  (page, params, search) =>
    pageHref(table, page, params, search);

/**
 * Where a residence's podcast feed is: a route of the site's server (`/residences/:id/feed.xml`,
 * docs/published.md), not a page of the table, so it does not move with the residence's page.
 */
export const residenceFeedPath = (id: string): string => `/residences/${encodeURIComponent(id)}/feed.xml`;

/**
 * The entry an address's id names: matched exactly first (e.g. '130E0A'), then without case, so that
 * a retyped address still works. The server's `?id=` and the pages match alike.
 */
export function findResidence<T extends { id: string }>(id: string, list: readonly T[]): T | undefined {
  return list.find((entry) => entry.id === id) ?? list.find((entry) => entry.id.toLowerCase() === id.toLowerCase());
}
