import * as v from 'valibot';
import { matchRoutes } from 'react-router-dom';
import { siteConfig } from './config';
import { REMOTE_NAMES, type RemoteName } from './remotes';
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
 * The site's table from each remote's declarations, in the order of the registry of parts: the
 * first page to claim a path keeps it. The remotes not given have no pages.
 */
export function pageTable(declared: Partial<Record<RemoteName, readonly PageRef[]>>): PageRef[] {
  const table: PageRef[] = [];
  const paths = new Set<string>();
  for (const remote of REMOTE_NAMES) {
    for (const page of declared[remote] ?? []) {
      if (paths.has(page.path)) continue;
      paths.add(page.path);
      table.push(page);
    }
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
