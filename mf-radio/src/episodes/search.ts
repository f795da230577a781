import type { EpisodesQuery } from '@collectif/shared';

/**
 * The archive's search as its address carries it (docs/episodes.md, « The archive »):
 * `/emissions?q=jungle&style=dub&residence=axonberg&page=2`. The same reading on the server and in
 * the browser, so a shared search renders on the server as the visitor saw it.
 */
export interface ArchiveSearch {
  q: string;
  style: string;
  residence: string;
  /** From 1; null when `?page=` is not a page number (`-1`, `abc`): the page says so. */
  page: number | null;
}

/** The search text is read up to this many characters (the server cuts it there too). */
export const MAX_QUERY_LENGTH = 100;
const MAX_FILTER_LENGTH = 100;

const text = (value: string | null, max: number) => (value ?? '').slice(0, max);

export function readSearch(params: URLSearchParams): ArchiveSearch {
  const pageText = params.get('page');
  let page: number | null = 1;
  if (pageText !== null && pageText !== '') {
    page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : null;
  }
  return {
    q: text(params.get('q'), MAX_QUERY_LENGTH),
    style: text(params.get('style'), MAX_FILTER_LENGTH),
    residence: text(params.get('residence'), MAX_FILTER_LENGTH),
    page,
  };
}

/** The API's query for a search (a page that is not a number asks nothing). */
export function apiQuery(search: ArchiveSearch): EpisodesQuery {
  return {
    ...(search.q.trim() === '' ? {} : { q: search.q.trim() }),
    ...(search.style === '' ? {} : { style: search.style }),
    ...(search.residence === '' ? {} : { residence: search.residence }),
    ...(search.page === null || search.page <= 1 ? {} : { page: search.page }),
  };
}

/** The query of a search's address on the archive page: only what is set, page 1 left out. */
export function searchQuery(search: Partial<ArchiveSearch>): string {
  const params = new URLSearchParams();
  if (search.q !== undefined && search.q.trim() !== '') params.set('q', search.q.trim());
  if (search.style !== undefined && search.style !== '') params.set('style', search.style);
  if (search.residence !== undefined && search.residence !== '') params.set('residence', search.residence);
  if (search.page !== undefined && search.page !== null && search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
