import { useEffect } from 'react';
import { useSearchParams, type PageDefinition, type PageRoute, type RemoteContract } from '@collectif/shared';
import { PageLink, PAGES, usePageHref } from '@collectif/shared/addresses';
import { StatusMessage, scrollToTop } from '@collectif/shared/ui';
import { playedArtistsApi, usePlayedArtistsQuery } from '../artists/api';
import { PlayedArtistList, plural } from '../artists/PlayedArtistList';
import '../styles/played-artists.css';

/** The search text is read up to this many characters, as the archive's. */
const MAX_QUERY_LENGTH = 100;

/** The list as its address carries it: `/artistes?q=dub&page=2`; page null when `?page=` is no page number. */
export function readArtistsSearch(params: URLSearchParams): { q: string; page: number | null } {
  const pageText = params.get('page');
  let page: number | null = 1;
  if (pageText !== null && pageText !== '') {
    page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : null;
  }
  return { q: (params.get('q') ?? '').slice(0, MAX_QUERY_LENGTH).trim(), page };
}

/** The API's query for it: the same object on the server and in the browser, so both share one answer. */
const apiQuery = ({ q, page }: { q: string; page: number }) => ({
  ...(page > 1 ? { page } : {}),
  ...(q === '' ? {} : { q }),
});

const searchOf = (q: string, page: number): Record<string, string> => ({
  ...(q === '' ? {} : { q }),
  ...(page > 1 ? { page: String(page) } : {}),
});

function Pagination({ q, page, pages }: { q: string; page: number; pages: number }) {
  if (pages <= 1) return null;
  return (
    <nav className="played-artists__pages" aria-label="Pages de la liste des artistes">
      {page > 1 ? (
        <PageLink className="button button--ghost" page={PAGES.playedArtists} search={searchOf(q, page - 1)} rel="prev">
          Page précédente
        </PageLink>
      ) : (
        <span />
      )}
      <span className="played-artists__page-number">
        Page {page} sur {pages}
      </span>
      {page < pages ? (
        <PageLink className="button button--ghost" page={PAGES.playedArtists} search={searchOf(q, page + 1)} rel="next">
          Page suivante
        </PageLink>
      ) : (
        <span />
      )}
    </nav>
  );
}

function Results({ q, page }: { q: string; page: number }) {
  const query = usePlayedArtistsQuery(apiQuery({ q, page }));
  const { data, error } = query;
  if (error !== undefined && 'status' in error && error.status === 404) {
    return (
      <StatusMessage kind="empty">
        Cette page de la liste n’existe pas. <PageLink page={PAGES.playedArtists}>Revenir à la première page</PageLink>
      </StatusMessage>
    );
  }
  if (data === undefined) {
    return query.isError ? (
      <StatusMessage kind="error" onRetry={() => void query.refetch()}>
        La liste des artistes est momentanément indisponible.
      </StatusMessage>
    ) : (
      <StatusMessage kind="loading">Chargement des artistes ...</StatusMessage>
    );
  }
  if (data.total === 0) {
    return (
      <StatusMessage kind="empty">
        {q === '' ? 'Aucun artiste pour le moment.' : 'Aucun artiste ne correspond à cette recherche.'}
      </StatusMessage>
    );
  }
  return (
    <>
      <p className="played-artists__count">{plural(data.total, 'artiste', 'artistes')}</p>
      <PlayedArtistList items={data.items} label="Artistes" />
      <Pagination q={q} page={data.page} pages={data.pages} />
    </>
  );
}

/** artistes: every artist the radio played or the label releases, A–Z, with their count of plays. */
function PlayedArtistsPage() {
  const [params] = useSearchParams();
  const { q, page } = readArtistsSearch(params);
  const action = usePageHref()(PAGES.playedArtists) ?? undefined;
  useEffect(() => {
    scrollToTop();
  }, [page]);
  return (
    <div className="page played-artists">
      <h1>Artistes</h1>
      <p className="played-artists__intro">
        Les artistes joués à l’antenne et ceux du label, de A à Z, avec leur nombre de passages.
      </p>
      {/* An ordinary GET to this page: it works before and without the page's script. */}
      <form className="played-artists__search" role="search" method="get" action={action}>
        <label htmlFor="artistes-q">Chercher un artiste</label>
        <input
          id="artistes-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_QUERY_LENGTH}
          autoComplete="off"
        />
        <button type="submit" className="button">
          Chercher
        </button>
      </form>
      {page === null ? (
        <StatusMessage kind="empty">
          Cette page de la liste n’existe pas.{' '}
          <PageLink page={PAGES.playedArtists}>Revenir à la première page</PageLink>
        </StatusMessage>
      ) : (
        <Results key={`${q} ${String(page)}`} q={q} page={page} />
      )}
    </div>
  );
}

export default PlayedArtistsPage satisfies RemoteContract['radio']['PlayedArtistsPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  load: ({ query, dispatch }) => {
    const { q, page: number } = readArtistsSearch(query);
    return number === null
      ? []
      : [dispatch(playedArtistsApi.endpoints.playedArtists.initiate(apiQuery({ q, page: number })))];
  },
  head: ({ query, state, href }) => {
    const { q, page: number } = readArtistsSearch(query);
    const read =
      number === null
        ? undefined
        : playedArtistsApi.endpoints.playedArtists.select(apiQuery({ q, page: number }))(state);
    // A page that is not a number, or past the last one, is not a page of the list.
    const missing =
      number === null || (read?.error !== undefined && 'status' in read.error && read.error.status === 404);
    const canonicalPath = href(PAGES.playedArtists, {}, searchOf(q, number ?? 1));
    return {
      ...(missing ? { status: 404 } : {}),
      ...(q === '' ? {} : { title: `Recherche « ${q.slice(0, 60)} » · Artistes` }),
      ...(number !== null && number > 1 ? { title: `Artistes, page ${String(number)}` } : {}),
      ...(canonicalPath === null ? {} : { canonicalPath }),
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'artistes',
  title: 'Artistes',
  description: 'Les artistes joués à l’antenne et ceux du label, de A à Z, avec leur nombre de passages.',
  area: 'La liste des artistes',
};
