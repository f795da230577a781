import { useEffect, useRef, useState } from 'react';
import {
  useEpisodesQuery,
  useSearchParams,
  useStylesQuery,
  type PageRoute,
  type RemoteContract,
  api,
  siteConfig,
  type PageDefinition,
} from '@collectif/shared';
import { PodcastGrid } from '../podcasts/PodcastCard';
import { PlayedArtistList } from '../artists/PlayedArtistList';
import { useDebounced } from '../ui/useDebounced';
import { useResidenceSummaries } from '../residences/residences';
import { apiQuery, readSearch, searchQuery, type ArchiveSearch } from '../episodes/search';
import { EpisodeSearchInput } from '../episodes/SearchInput';
import '../styles/episodes.css';
import { PageLink, PAGES, usePageHref } from '@collectif/shared/addresses';
import { StatusMessage } from '@collectif/shared/ui';

/** The search follows the typing after this pause (docs/episodes.md, « The archive »). */
export const SEARCH_DEBOUNCE_MS = 300;

const plural = (count: number, one: string, many: string) => `${String(count)} ${count === 1 ? one : many}`;
/** The archive opens on its grid: its first row or two of covers (two columns on a phone) load at once. */
const EAGER_COVERS = 4;

function SearchForm({ search, onChange }: { search: ArchiveSearch; onChange: (next: Partial<ArchiveSearch>) => void }) {
  const [draft, setDraft] = useState({ from: search.q, text: search.q });
  const query = useDebounced((q: string) => {
    onChange({ q, page: 1 });
  }, SEARCH_DEBOUNCE_MS);
  const styles = useStylesQuery(undefined).data ?? [];
  const { residences } = useResidenceSummaries();
  // The address changed another way (back button, a link): the box shows it, unless it only
  // caught up with what is typed (the address drops the space the visitor just typed).
  if (draft.from !== search.q) {
    setDraft({ from: search.q, text: draft.text.trim() === search.q ? draft.text : search.q });
  }
  const typed = draft.text;
  const submit = (event: { preventDefault: () => void }) => {
    event.preventDefault();
    query.now(typed);
  };
  // Without JavaScript the form is an ordinary GET to the archive's page: the server renders the results.
  const action = usePageHref()(PAGES.episodes) ?? undefined;
  return (
    <form className="archive__search" role="search" method="get" action={action} onSubmit={submit}>
      <div className="archive__field archive__field--query">
        <label htmlFor="archive-q">Rechercher une émission</label>
        <EpisodeSearchInput
          id="archive-q"
          name="q"
          value={typed}
          onType={(value) => {
            setDraft({ from: search.q, text: value });
            query.later(value);
          }}
        />
      </div>
      <div className="archive__field">
        <label htmlFor="archive-style">Style</label>
        <select
          id="archive-style"
          name="style"
          value={search.style}
          onChange={(event) => {
            onChange({ style: event.target.value, page: 1 });
          }}
        >
          <option value="">Tous les styles</option>
          {styles.map((style) => (
            <option key={style.name} value={style.name}>
              {style.name}
            </option>
          ))}
          {/* A style from a shared link that is not (or no longer) in the list still shows. */}
          {search.style !== '' && !styles.some((style) => style.name === search.style) ? (
            <option value={search.style}>{search.style}</option>
          ) : null}
        </select>
      </div>
      <div className="archive__field">
        <label htmlFor="archive-residence">Résidence</label>
        <select
          id="archive-residence"
          name="residence"
          value={search.residence}
          onChange={(event) => {
            onChange({ residence: event.target.value, page: 1 });
          }}
        >
          <option value="">Toutes les résidences</option>
          {residences.map((residence) => (
            <option key={residence.id} value={residence.id}>
              {residence.artist}
            </option>
          ))}
          {search.residence !== '' && !residences.some((residence) => residence.id === search.residence) ? (
            <option value={search.residence}>{search.residence}</option>
          ) : null}
        </select>
      </div>
      <button type="submit" className="button">
        Rechercher
      </button>
    </form>
  );
}

function Pagination({ search, page, pages }: { search: ArchiveSearch; page: number; pages: number }) {
  if (pages <= 1) return null;
  return (
    <nav className="archive__pages" aria-label="Pages de l'archive">
      {page > 1 ? (
        <PageLink
          className="button button--ghost"
          page={PAGES.episodes}
          search={searchQuery({ ...search, page: page - 1 })}
          rel="prev"
        >
          Page précédente
        </PageLink>
      ) : (
        <span />
      )}
      <span className="archive__page-number">
        Page {page} sur {pages}
      </span>
      {page < pages ? (
        <PageLink
          className="button button--ghost"
          page={PAGES.episodes}
          search={searchQuery({ ...search, page: page + 1 })}
          rel="next"
        >
          Page suivante
        </PageLink>
      ) : (
        <span />
      )}
    </nav>
  );
}

function MissingPage() {
  return (
    <StatusMessage kind="empty">
      Cette page de l&apos;archive n&apos;existe pas.{' '}
      <PageLink page={PAGES.episodes}>Revenir à la première page</PageLink>
    </StatusMessage>
  );
}

function Results({ search }: { search: ArchiveSearch }) {
  const query = useEpisodesQuery(apiQuery(search), { skip: search.page === null });
  const { data, isError, isFetching, refetch } = query;
  if (search.page === null) return <MissingPage />;
  if (data === undefined) {
    if (isError) {
      return (
        <StatusMessage kind="error" onRetry={() => void refetch()}>
          L&apos;archive est momentanément indisponible.
        </StatusMessage>
      );
    }
    return <StatusMessage kind="loading">Chargement des émissions ...</StatusMessage>;
  }
  // A search's first page names the played artists whose name holds it, each leading to their page.
  const artists =
    data.artists === undefined || data.artists.length === 0 ? null : (
      <section className="archive__artists" aria-labelledby="artistes-trouves">
        <h2 id="artistes-trouves">Artistes</h2>
        <PlayedArtistList items={data.artists} label="Artistes trouvés" />
      </section>
    );
  if (data.total === 0) {
    const filtered = search.q.trim() !== '' || search.style !== '' || search.residence !== '';
    return (
      <>
        {artists}
        <StatusMessage kind="empty">
          {filtered ? 'Aucune émission ne correspond à cette recherche.' : 'Aucune émission pour le moment.'}{' '}
          {filtered ? <PageLink page={PAGES.episodes}>Effacer la recherche</PageLink> : null}
        </StatusMessage>
      </>
    );
  }
  if (data.items.length === 0) return <MissingPage />;
  return (
    <>
      {artists}
      <p className="archive__count" role="status">
        {plural(data.total, 'émission', 'émissions')}
        {isFetching ? ' · mise à jour…' : ''}
      </p>
      <PodcastGrid items={data.items} label="Émissions" headingLevel={2} eagerCount={EAGER_COVERS} />
      <Pagination search={search} page={data.page} pages={data.pages} />
    </>
  );
}

/** emissions: every show of the feed, newest first, with a search, filters and pages. */
function EpisodesPage() {
  const [params, setParams] = useSearchParams();
  const search = readSearch(params);
  // Each choice starts from the last one asked for until the address has moved: a style then a
  // residence chosen before the page renders again (a loaded phone) both stay in the address, where
  // the second was made from the render before the first and dropped it.
  const address = params.toString();
  const asked = useRef<{ address: string; search: ArchiveSearch } | null>(null);
  // The address moved (a choice arrived, the back button): the next choice starts from it.
  useEffect(() => {
    asked.current = null;
  }, [address]);
  const change = (next: Partial<ArchiveSearch>) => {
    const pending = asked.current;
    const from = pending !== null && pending.address === address ? pending.search : search;
    const wanted = { ...from, ...next };
    asked.current = { address, search: wanted };
    // Typing replaces the address instead of adding one history entry per pause.
    setParams(new URLSearchParams(searchQuery(wanted)), {
      replace: next.q !== undefined && next.q !== from.q,
      preventScrollReset: true,
    });
  };
  return (
    <div className="page archive">
      <h1>Émissions</h1>
      <SearchForm search={search} onChange={change} />
      <Results search={search} />
    </div>
  );
}

export default EpisodesPage satisfies RemoteContract['radio']['EpisodesPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The same arguments as the page's own queries (episodes/search.ts), so the browser finds them
  // answered. The filters' lists are not loaded with the page: a closed list shows nothing of them,
  // and in the page's state they would delay its first screen (docs/episodes.md, « The filters »).
  // The browser asks for them once the page is interactive; until then each list offers « all » and
  // the choice of the address.
  load: ({ query, dispatch }) => {
    const search = readSearch(query);
    return search.page === null ? [] : [dispatch(api.endpoints.episodes.initiate(apiQuery(search)))];
  },
  head: ({ query, state, href }) => {
    const search = readSearch(query);
    const found = search.page === null ? undefined : api.endpoints.episodes.select(apiQuery(search))(state).data;
    // A page that is not a number, or past the last one, is not a page of the archive.
    const missing = search.page === null || (found !== undefined && found.total > 0 && found.items.length === 0);
    const q = search.q.trim();
    const canonicalPath = href(PAGES.episodes, {}, searchQuery(search.page === null ? { ...search, page: 1 } : search));
    return {
      ...(missing ? { status: 404 } : {}),
      ...(q === '' ? {} : { title: `Recherche « ${q.slice(0, 60)} » · Émissions` }),
      ...(search.page !== null && search.page > 1 ? { title: `Émissions, page ${String(search.page)} · Archive` } : {}),
      description: `Toutes les émissions passées de ${siteConfig.name} : recherche par artiste, émission ou style.`,
      ...(canonicalPath === null ? {} : { canonicalPath }),
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'emissions',
  title: 'Émissions · Archive',
  area: "L'archive des émissions",
  menu: 'Émissions',
};
