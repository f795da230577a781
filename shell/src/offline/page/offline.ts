import '@collectif/shared/styles/tokens.css';
import './offline.css';
import { fillPath, pageHref, PAGES, type AddressedPage } from '@collectif/shared/addresses';
import { FOLLOW_KEY, readStoredIds } from '@collectif/shared/follow';
import { CACHES, PAGE_TABLE_KEY } from '../rules';

/**
 * The offline page (docs/published.md, « Installable »): what the service worker answers for a page
 * asked for without network that it has not kept. It names what still works on this device: the
 * residences followed (this browser's list, docs/follow.md) and « Mes résidences », and the last
 * pages seen, which the worker kept and opens without network. Links come from the table of pages
 * the shell sent the worker at the last visit (register.ts), never from a typed path.
 */

/** « Mes résidences », by the module that renders it (`PAGES.followed`). */
const FOLLOWED = { remote: 'radio', module: 'FollowedPage' } as const;
/** Pages listed at most. */
const SEEN_MAX = 10;

interface Seen {
  href: string;
  title: string;
  when: number;
}

const part = (name: string) => document.querySelector<HTMLElement>(`[data-part="${name}"]`);

/**
 * An address of this site, or null: the table of pages and the pages' keys come from the caches,
 * which a page's script can write, and a path that starts with `//` or holds a backslash would lead
 * to another site.
 */
const onSite = (href: string | null): string | null =>
  href !== null && /^\/(?![/\\])/.test(href) && !href.includes('\\') ? href : null;

function readTable(text: string): AddressedPage[] {
  try {
    const data: unknown = JSON.parse(text);
    if (!Array.isArray(data)) return [];
    return data.filter(
      (entry): entry is AddressedPage =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as AddressedPage).path === 'string' &&
        typeof (entry as AddressedPage).remote === 'string' &&
        typeof (entry as AddressedPage).module === 'string',
    );
  } catch {
    return [];
  }
}

async function keptTable(): Promise<AddressedPage[]> {
  const kept = await (await caches.open(CACHES.offline)).match(PAGE_TABLE_KEY);
  return kept === undefined ? [] : readTable(await kept.text());
}

/** The pages the worker kept, newest first, each with its title. */
async function seenPages(): Promise<Seen[]> {
  const cache = await caches.open(CACHES.pages);
  const parser = new DOMParser();
  const seen = await Promise.all(
    (await cache.keys()).map(async (request): Promise<Seen | null> => {
      const response = await cache.match(request);
      if (response === undefined) return null;
      const url = new URL(request.url);
      const title = parser.parseFromString(await response.text(), 'text/html').title.trim();
      return {
        href: `${url.pathname}${url.search}`,
        title: title === '' ? url.pathname : title,
        when: Date.parse(response.headers.get('date') ?? '') || 0,
      };
    }),
  );
  return seen
    .filter((page): page is Seen => page !== null && onSite(page.href) !== null)
    .sort((a, b) => b.when - a.when)
    .slice(0, SEEN_MAX);
}

function item(text: string, href: string | null, note: string): HTMLLIElement {
  const li = document.createElement('li');
  const label = document.createElement(href === null ? 'span' : 'a');
  if (label instanceof HTMLAnchorElement && href !== null) label.href = href;
  label.textContent = text;
  const small = document.createElement('small');
  small.textContent = note;
  label.append(small);
  li.append(label);
  return li;
}

function fill(list: string, empty: string, items: HTMLLIElement[]): void {
  const ul = part(list);
  if (ul === null || items.length === 0) return;
  ul.replaceChildren(...items);
  ul.hidden = false;
  part(empty)?.setAttribute('hidden', '');
}

async function show(): Promise<void> {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(FOLLOW_KEY);
  } catch {
    // Storage refused: no list on this device.
  }
  const followed = readStoredIds(stored);
  const [table, seen] =
    'caches' in window ? await Promise.all([keptTable(), seenPages()]) : [[] as AddressedPage[], [] as Seen[]];
  const keptAt = new Map(seen.map((page) => [page.href, page]));

  fill(
    'suivies',
    'suivies-vide',
    followed.map((id) => {
      const href = onSite(pageHref(table, PAGES.residence, { id }));
      const kept = href === null ? undefined : keptAt.get(href);
      return item(
        kept?.title ?? id,
        href,
        kept === undefined ? 'Sa page s’ouvrira avec le réseau.' : 'Sa page est gardée : elle s’ouvre sans réseau.',
      );
    }),
  );
  const mine = table.find((entry) => entry.remote === FOLLOWED.remote && entry.module === FOLLOWED.module);
  const link = part('mes-residences');
  const mineHref = mine === undefined ? null : onSite(fillPath(mine.path));
  if (mineHref !== null && link !== null) {
    const a = document.createElement('a');
    a.href = mineHref;
    a.textContent = 'Mes résidences';
    link.replaceChildren(
      a,
      keptAt.has(a.pathname)
        ? ' : la page est gardée, elle s’ouvre sans réseau.'
        : ' : votre liste et votre calendrier, dès que le réseau revient.',
    );
    link.hidden = false;
  }
  fill(
    'vues',
    'vues-vide',
    seen.map((page) => item(page.title, page.href, page.href)),
  );
}

document.querySelector('[data-action="reessayer"]')?.addEventListener('click', () => {
  window.location.reload();
});
void show();
