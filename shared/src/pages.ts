import * as v from 'valibot';
import { matchRoutes } from 'react-router-dom';
import { siteConfig } from './config';
import { REMOTE_NAMES, REMOTE_PARTS, type RemoteName } from './remotes';
import { fillPath } from './addresses/paths';

/**
 * The pages of the site (docs/parts.md, « Pages »; docs/site.md, « Routes and titles »). Each
 * page module declares its address as `route`; a remote's build writes its pages as `pages.json`
 * beside its manifest, and the server reads them there at run time, again when the remote is redeployed.
 * The server puts the whole table into every page (`PAGES_CONFIG_ID`), and the shell builds its
 * routes, menu and back button from it: a team adds or renames a page by deploying its remote alone.
 */

/** A remote and one of the modules it exposes. */
export interface RemoteModuleRef {
  remote: RemoteName;
  module: string;
}

export interface PageRef extends RemoteModuleRef {
  /** React Router's pattern, without the leading slash: '' for home, `residences/:id`. */
  path: string;
  title: string;
  description?: string;
  /** How the shell names the page's area in its messages (« … est momentanément indisponible »). */
  area: string;
  /** Its label in the main menu; pages without one are not in the menu. */
  menu?: string;
  /** The path of the page the navbar's back button leads to from this one; home when absent. */
  back?: string;
  /**
   * The page's former paths (React Router patterns, with the same parameters): answered with a
   * permanent redirect to the current one, so that a renamed page keeps its links from elsewhere.
   */
  aliases?: string[];
  /** Not for search engines: out of the sitemap, `noindex` in its head (the volunteers' editor). */
  noindex?: boolean;
}

/** `<script type="application/json" id="pages-config">`: the table, as the server read it. */
export const PAGES_CONFIG_ID = 'pages-config';

/** The meta description of a page that has none of its own. */
export const DEFAULT_DESCRIPTION = "Web radio, replays, résidences, label et évènements d'un collectif de Toulouse.";

const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));
/** Lower-case words and `:parameters`, separated by slashes; '' is home. */
const PATH = /^$|^(?:[a-z0-9-]+|:[a-zA-Z]\w*)(?:\/(?:[a-z0-9-]+|:[a-zA-Z]\w*))*$/;

const pathSchema = v.pipe(
  v.string(),
  v.regex(PATH, 'chemin de page invalide (mots en minuscules et :paramètres, sans / au début)'),
);

const declaration = v.strictObject({
  path: pathSchema,
  module: v.pipe(v.string(), v.regex(/^[A-Z]\w{0,63}$/, 'nom de module invalide')),
  title: text(120),
  description: v.optional(text(300)),
  area: text(120),
  menu: v.optional(text(40)),
  back: v.optional(pathSchema),
  aliases: v.optional(v.pipe(v.array(pathSchema), v.maxLength(10))),
  noindex: v.optional(v.boolean()),
});

/** What a remote's `pages.json` holds: its pages, in menu order (made from its modules' `route`). */
export const pageDeclarations = v.pipe(v.array(declaration), v.maxLength(100));

export type PageDeclaration = v.InferOutput<typeof declaration>;

/**
 * What a page module exports as `route`: its address and names (docs/parts.md, « Pages »). A
 * literal, read by the build without running the module (shared/build/pages.mjs); a list when
 * the module serves several addresses.
 */
export type PageRoute = Omit<PageDeclaration, 'module'> | readonly Omit<PageDeclaration, 'module'>[];

/** `{site}` in a title or description is the collective's name (shared/config/site.json). */
const withSiteName = (value: string) => value.replaceAll('{site}', siteConfig.name);

/**
 * A remote's declared pages, checked; throws an error naming the field. Titles and descriptions get
 * the site's name where they say `{site}`.
 */
export function readPageDeclarations(data: unknown, remote: RemoteName): PageRef[] {
  const result = v.safeParse(pageDeclarations, data);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    throw new Error(`pages de « ${remote} » : ${where === '' ? '' : `${where} : `}${issue.message}`);
  }
  return result.output.map((page) => ({
    ...page,
    remote,
    title: withSiteName(page.title),
    ...(page.description === undefined ? {} : { description: withSiteName(page.description) }),
  }));
}

/**
 * The addresses no remote's page may take (docs/parts.md, « Addresses »), each with why: a route of
 * the site's server, or files it serves, which a page would hide (the page route answers a page
 * before a file) or be hidden by. In React Router's words: `:name` is any one segment, a final `*`
 * the address and every one below it. `owner`: the one part that may have pages there.
 *
 * A page's static segments are lower-case words (`PATH`): the server's names with a dot
 * (`/sitemap.xml`, `/sw.js`, the shell's hashed files) can only be taken by a parameter, and a path
 * whose first segment is a parameter is refused whole (`claimProblem`): it would take every address
 * at the root that no page has, the shell's own files first.
 */
const RESERVED: readonly { path: string; owner?: RemoteName; why: string }[] = [
  // server/src/app/app.ts: every /api route (the API, the teams' deploys at /api/parts).
  { path: 'api/*', why: "l'API du site et les déploiements des équipes" },
  // The volunteers' editor, mf-admin's own pages (admin, admin/invitation): a look-alike page there
  // would take the invitations' links and the passkeys' sign-in.
  { path: 'admin/*', owner: 'admin', why: "l'espace des bénévoles" },
  // server/src/site/files.ts: the site's pictures and static files; each remote's built files under
  // its folder (shared/parts.mjs); the embeddable player's build and its frame (/embed/lecteur).
  { path: 'assets/*', why: 'les fichiers du site' },
  ...REMOTE_PARTS.map(({ folder }) => ({ path: `${folder}/*`, why: `les fichiers de ${folder}` })),
  { path: 'embed/*', why: 'le lecteur à intégrer' },
  { path: 'remotes.json', why: 'la carte des parties' },
  // server/src/site/media.ts: the pictures volunteers upload.
  { path: 'media/*', why: 'les images envoyées par les bénévoles' },
  // server/src/site/oembed.ts.
  { path: 'oembed', why: 'les réponses oEmbed' },
  // server/src/site/health.ts: what nginx and the admins ask.
  { path: 'healthz', why: "l'état du serveur" },
  { path: 'readyz', why: "l'état du serveur" },
  // server/src/metrics: what the admins' Prometheus reads of each instance (docs/deploy.md, « Metrics »).
  { path: 'metrics', why: 'les mesures du serveur' },
  // server/src/site/published.ts: the feeds and files search engines and apps read.
  { path: 'sitemap.xml', why: 'le plan du site' },
  { path: 'robots.txt', why: 'les règles des robots' },
  { path: 'manifest.webmanifest', why: "le manifeste de l'application" },
  { path: 'evenements.ics', why: 'le calendrier des évènements' },
  { path: 'residences/:id/feed.xml', why: "le flux podcast d'une résidence" },
  // server/src/site/dev.ts: the remotes' dev servers under `npm run dev`.
  { path: '_dev/*', why: 'les serveurs de développement' },
  // The shell's build, served at the root when no page has the address: its service worker, its
  // fonts' folder.
  { path: 'sw.js', why: 'le service worker du shell' },
  { path: 'files/*', why: 'les polices du shell' },
];

/**
 * The server's own routes, as its route table has them once every plugin is registered
 * (`reserveServerRoutes`, server/src/app/app.ts): each is reserved as `RESERVED`'s are, so that a
 * route is reserved by being written, whatever the list above says.
 */
const serverRoutes = new Set<string>();

/**
 * Reserves the server's routes (Fastify's patterns: `/direct/:rendition/:file`, `/mf-label/*`), but
 * the pages' own (`/`, `/*`). A parameter's pattern (`:file(^\\d+)`) is read as the parameter.
 */
export function reserveServerRoutes(urls: Iterable<string>): void {
  for (const url of urls) {
    const path = url.replace(/^\/+|\/+$/g, '').replace(/(:\w+)\([^/]*\)/g, '$1');
    if (path !== '' && path !== '*') serverRoutes.add(path);
  }
}

/**
 * The remotes that have no address of their own: the player is on every page and exports no
 * `route` (docs/parts.md, « Pages »). The shell is no remote: its pages.json is never read.
 */
const WITHOUT_PAGES: ReadonlySet<RemoteName> = new Set<RemoteName>(['player']);

const segmentsOf = (path: string): readonly string[] => (path === '' ? [] : path.split('/'));
const isParameter = (segment: string): boolean => segment.startsWith(':');

/** Whether some address matches both patterns (`:name` one segment, a final `*` any rest, none too). */
function overlap(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; ; i += 1) {
    const x = a[i];
    const y = b[i];
    if (x === '*' || y === '*') return true;
    if (x === undefined || y === undefined) return x === y;
    if (x !== y && !isParameter(x) && !isParameter(y)) return false;
  }
}

/** A page's address as a team reads it, or a former one (`aliases`). */
const named = (path: string, alias: boolean) => `${alias ? "l'ancienne adresse" : "l'adresse"} /${path}`;

/** Why a remote may not have a page at `path` whatever the other parts declare, or null. */
function claimProblem(remote: RemoteName, path: string, alias: boolean): string | null {
  if (WITHOUT_PAGES.has(remote)) {
    return `${named(path, alias)} ne peut pas être à la partie ${remote} : le lecteur est sur chaque page, il n'a pas d'adresse à lui`;
  }
  const segments = segmentsOf(path);
  if (segments[0] !== undefined && isParameter(segments[0])) {
    return `${named(path, alias)} commence par un paramètre : elle prendrait les adresses du serveur et les fichiers du shell (/api, /sw.js…)`;
  }
  const reserved = RESERVED.find((entry) => entry.owner !== remote && overlap(segments, segmentsOf(entry.path)));
  if (reserved === undefined) {
    const route = [...serverRoutes].find((path) => overlap(segments, segmentsOf(path)));
    return route === undefined ? null : `${named(path, alias)} est réservée au serveur (sa route /${route})`;
  }
  return reserved.owner === undefined
    ? `${named(path, alias)} est réservée au serveur (${reserved.why})`
    : `${named(path, alias)} est réservée à la partie ${reserved.owner} (${reserved.why})`;
}

/** One address a page claims: its path, or one of its former paths. */
interface Claim {
  page: PageRef;
  path: string;
  segments: readonly string[];
  alias: boolean;
}

/** What a remote's pages were given in a table: its own addresses (paths and former paths). */
type Grants = ReadonlyMap<RemoteName, readonly (readonly string[])[]>;

/**
 * The grants of the table last made from each remote's declarations, by the declarations' list:
 * the server reads a remote's file once per version and gives the same list while it is unchanged
 * (server/src/site/page-routes.ts), so a list seen before names the table it was last part of.
 */
const madeWith = new WeakMap<readonly PageRef[], Grants>();

const grantsOf = (table: readonly PageRef[]): Grants => {
  const grants = new Map<RemoteName, (readonly string[])[]>();
  for (const page of table) {
    const own = grants.get(page.remote) ?? [];
    own.push(...[page.path, ...(page.aliases ?? [])].map(segmentsOf));
    grants.set(page.remote, own);
  }
  return grants;
};

interface PageTableOptions {
  /**
   * The pages that hold their addresses already: a contested address stays with the part one of
   * them gives it to. At a deploy, the other parts' pages as served. Without it, the table made
   * before from the same declarations (one remote's changed, the others' the same lists).
   */
  owners?: readonly PageRef[];
  /** Told of each claim left out, in French; the console's warning by default. */
  refused?: (page: PageRef, reason: string) => void;
}

const warnRefused = (page: PageRef, reason: string): void => {
  console.warn(`Pages de « ${page.remote} » (${page.module}) : ${reason} ; ignorée`);
};

/**
 * The site's table from each remote's declarations, in the order of the registry of parts (the
 * menu's order). A page address belongs to one part (docs/parts.md, « Addresses »): a claim is left
 * out, and `refused` says why,
 *
 * - from a remote that has no pages (the player);
 * - on an address no page may take (`RESERVED`: the server's routes and files, the editor's pages
 *   but to mf-admin), or one whose first segment is a parameter;
 * - on an address another part's claim covers too (the same address, or patterns that match a common
 *   one: `residences/:id` and `residences/axonberg`): it stays with the part that held it
 *   (`owners`), and with none of them when none or both did, so that no part takes a page another
 *   served, whatever the registry's order or the files on disk.
 *
 * A former path (`aliases`) is claimed the same way; one refused is dropped from its page alone. Two
 * pages of one remote with the same path: the first is kept. The remotes not given have no pages.
 */
export function pageTable(
  declared: Partial<Record<RemoteName, readonly PageRef[]>>,
  { owners, refused = warnRefused }: PageTableOptions = {},
): PageRef[] {
  const lists = REMOTE_NAMES.flatMap((remote) => {
    const list = declared[remote];
    return list === undefined ? [] : [list];
  });
  // The parts that held their addresses: given, or the table made before from these lists.
  const held: Grants =
    owners === undefined
      ? (lists.map((list) => madeWith.get(list)).find((grants) => grants !== undefined) ?? new Map())
      : grantsOf(owners);
  const refusals = new Map<PageRef, Set<string>>();
  const refuse = (page: PageRef, reason: string) => {
    const reasons = refusals.get(page) ?? new Set<string>();
    refusals.set(page, reasons.add(reason));
  };

  // Each page's own claims, once its remote may have them.
  const claims: Claim[] = [];
  const dropped = new Set<PageRef>();
  const droppedAliases = new Map<PageRef, Set<string>>();
  for (const remote of REMOTE_NAMES) {
    const paths = new Set<string>();
    for (const page of declared[remote] ?? []) {
      if (paths.has(page.path)) continue;
      paths.add(page.path);
      const problem = claimProblem(remote, page.path, false);
      if (problem !== null) {
        refuse(page, problem);
        dropped.add(page);
        continue;
      }
      claims.push({ page, path: page.path, segments: segmentsOf(page.path), alias: false });
      for (const alias of page.aliases ?? []) {
        const aliasProblem = claimProblem(remote, alias, true);
        if (aliasProblem === null) claims.push({ page, path: alias, segments: segmentsOf(alias), alias: true });
        else {
          refuse(page, aliasProblem);
          droppedAliases.set(page, (droppedAliases.get(page) ?? new Set()).add(alias));
        }
      }
    }
  }

  // Claims of two parts on a common address: the part that held it keeps it, else neither does.
  const holds = (remote: RemoteName, claim: Claim) =>
    (held.get(remote) ?? []).some((segments) => overlap(segments, claim.segments));
  const lose = (claim: Claim, reason: string) => {
    refuse(claim.page, reason);
    if (!claim.alias) dropped.add(claim.page);
    else droppedAliases.set(claim.page, (droppedAliases.get(claim.page) ?? new Set()).add(claim.path));
  };
  for (let i = 0; i < claims.length; i += 1) {
    for (let j = i + 1; j < claims.length; j += 1) {
      const mine = claims[i] as Claim;
      const theirs = claims[j] as Claim;
      const [a, b] = [mine.page.remote, theirs.page.remote];
      if (a === b || !overlap(mine.segments, theirs.segments)) continue;
      const [aHolds, bHolds] = [holds(a, mine), holds(b, theirs)];
      if (aHolds && !bHolds) lose(theirs, `${named(theirs.path, theirs.alias)} appartient à la partie ${a}`);
      else if (bHolds && !aHolds) lose(mine, `${named(mine.path, mine.alias)} appartient à la partie ${b}`);
      else {
        lose(
          mine,
          `${named(mine.path, mine.alias)} est aussi déclarée par la partie ${b} : aucune des deux ne la garde`,
        );
        lose(
          theirs,
          `${named(theirs.path, theirs.alias)} est aussi déclarée par la partie ${a} : aucune des deux ne la garde`,
        );
      }
    }
  }

  for (const [page, reasons] of refusals) for (const reason of reasons) refused(page, reason);
  const table = claims.flatMap(({ page, alias }) => {
    if (alias || dropped.has(page)) return [];
    const gone = droppedAliases.get(page);
    if (gone === undefined) return [page];
    const aliases = (page.aliases ?? []).filter((path) => !gone.has(path));
    const { aliases: _aliases, ...rest } = page;
    return [aliases.length === 0 ? rest : { ...rest, aliases }];
  });
  if (owners === undefined) {
    const grants = grantsOf(table);
    for (const list of lists) madeWith.set(list, grants);
  }
  return table;
}

const tableSchema = v.array(
  v.object({ ...declaration.entries, remote: v.picklist(REMOTE_NAMES as readonly [RemoteName, ...RemoteName[]]) }),
);

/** The table as the server wrote it into a page; an unreadable one is an empty table. */
export function readPageTable(data: unknown): PageRef[] {
  const result = v.safeParse(tableSchema, data);
  return result.success ? result.output : [];
}

let current: readonly PageRef[] = [];

/** Sets the table the site runs with: the shell at start, the server before each page. */
export function providePages(table: readonly PageRef[]): void {
  current = table;
}

/** The table the site runs with. */
export function sitePages(): readonly PageRef[] {
  return current;
}

export interface MenuLink {
  to: string;
  label: string;
  /** The page behind the link, warmed when the visitor points at it. */
  page: RemoteModuleRef;
}

/** The main menu: the pages that have a menu label, in the table's order. */
export function menuOf(table: readonly PageRef[]): MenuLink[] {
  return table.flatMap((page) =>
    page.menu === undefined
      ? []
      : [{ to: fillPath(page.path), label: page.menu, page: { remote: page.remote, module: page.module } }],
  );
}

export interface PageMatch {
  page: PageRef;
  params: Record<string, string>;
}

/** What React Router's matcher finds for `pathname` among `routes`, its parameters decoded. */
function matchPath(pathname: string, routes: { path: string; page: PageRef }[]): PageMatch | null {
  // React Router's own matcher, the one the shell's routes use: the server and the browser agree on
  // which page a path is. Case-sensitive, as the table's paths are lower-case words.
  // A path that is not valid percent-encoding names no page (the router would keep it raw).
  try {
    decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const [match] =
    matchRoutes(
      routes.map((route) => ({ ...route, caseSensitive: true })),
      pathname,
    ) ?? [];
  if (match === undefined) return null;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.params)) if (value !== undefined) params[name] = value;
  return { page: match.route.page, params };
}

/**
 * The page that renders `pathname`, with its parameters, or null for a path no page has (the site
 * redirects it home) or whose parameters cannot be decoded. Trailing slashes are ignored, as the
 * router does.
 */
export function findPage(pathname: string, table: readonly PageRef[]): PageMatch | null {
  // React Router's matcher ranks and compiles every route at each call: a page's match is kept per
  // table (the server reads the same table object until a remote redeploys), a few hundred paths.
  let known = matches.get(table);
  if (known === undefined) {
    known = new Map();
    matches.set(table, known);
  }
  if (known.has(pathname)) return known.get(pathname) ?? null;
  const match = matchPath(
    pathname,
    table.map((page) => ({ path: page.path, page })),
  );
  if (known.size >= MATCHES_KEPT) known.delete(known.keys().next().value ?? '');
  known.set(pathname, match);
  return match;
}

/** The paths whose page is kept per table, the oldest forgotten first. */
const MATCHES_KEPT = 500;
const matches = new WeakMap<readonly PageRef[], Map<string, PageMatch | null>>();

/**
 * The page a former path of it names (its `aliases`), with the parameters read from that path; null
 * when a page of the table has the path today (it wins) or no page had it.
 */
export function findAlias(pathname: string, table: readonly PageRef[]): PageMatch | null {
  if (findPage(pathname, table) !== null) return null;
  return matchPath(
    pathname,
    table.flatMap((page) => (page.aliases ?? []).map((path) => ({ path, page }))),
  );
}

/** Where a former path now is: the page's current path, the same parameters. */
export const aliasTarget = ({ page, params }: PageMatch): string => fillPath(page.path, params);

/**
 * The page that renders `pathname`; an unknown path is the home page, where the shell redirects it.
 * Null only when the table has no home page.
 */
export function matchPage(pathname: string, table: readonly PageRef[]): PageMatch | null {
  return findPage(pathname, table) ?? findPage('/', table);
}

/** Where the navbar's back button leads from `pathname`: the page's `back`, else home. */
export function backTarget(pathname: string, table: readonly PageRef[]): string {
  return `/${findPage(pathname, table)?.page.back ?? ''}`;
}
