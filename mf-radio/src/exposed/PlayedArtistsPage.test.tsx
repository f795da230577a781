import { screen, within } from '@testing-library/react';
import { makeStore, radioSettings } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { declaredHref } from '@collectif/shared/testing';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import PlayedArtistsPage, { page as playedArtistsPage } from './PlayedArtistsPage';

const artist = (n: number, plays: number, extra: object = {}) => ({
  slug: `artiste-${String(n)}`,
  name: `Artiste ${String(n)}`,
  plays,
  releases: 0,
  ...extra,
});

/** GET /api/artists as the server answers it: 50 a page, A–Z; page 3 is past the last. */
function artists(url: URL) {
  const page = Number(url.searchParams.get('page') ?? '1');
  if (page > 2) return { status: 404, body: { error: 'artists_page_not_found', message: 'Page inconnue.' } };
  const q = url.searchParams.get('q');
  const items =
    q === null
      ? [
          artist(1, 12, { releases: 1, residence: 'axonberg' }),
          artist(2, 1),
          { slug: '../x', name: 'Hostile', plays: 3 },
        ]
      : [artist(3, 2)];
  return { body: { items, page, pages: q === null ? 2 : 1, total: q === null ? 52 : 1 } };
}

let api: FakeApi;

beforeEach(async () => {
  window.scrollTo = jest.fn();
  api = await startFakeApi({ '/artists': artists });
});

afterEach(async () => {
  await api.close();
});

const open = (search = '') =>
  renderWithProviders(<PlayedArtistsPage />, { route: `/artistes${search}`, path: 'artistes' });

describe('PlayedArtistsPage', () => {
  it('lists the artists A–Z with their count of plays, each leading to their page, and the next page', async () => {
    open();
    expect(screen.getByRole('heading', { level: 1, name: 'Artistes' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Artistes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Artiste 1 12 passages · 1 sortie · en résidence', 'Artiste 2 1 passage']);
    expect(within(list).getByRole('link', { name: 'Artiste 1' })).toHaveAttribute('href', '/artistes/artiste-1');
    expect(screen.getByText('52 artistes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Page suivante' })).toHaveAttribute('href', '/artistes?page=2');
    expect(screen.queryByRole('link', { name: 'Page précédente' })).not.toBeInTheDocument();
  });

  it('searches by name with an ordinary form, and keeps the search in the pages’ links', async () => {
    open('?q=dub');
    expect(screen.getByRole('searchbox', { name: 'Chercher un artiste' })).toHaveValue('dub');
    expect(screen.getByRole('search')).toHaveAttribute('action', '/artistes');
    const list = await screen.findByRole('list', { name: 'Artistes' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Artiste 3']);
    expect(api.requests).toContain('/artists?q=dub');
  });

  it('says a page past the last one, or one that is not a number, does not exist', async () => {
    open('?page=3');
    expect(await screen.findByText(/Cette page de la liste n’existe pas/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Revenir à la première page' })).toHaveAttribute('href', '/artistes');
    api.requests.length = 0;
    open('?page=abc');
    expect(screen.getAllByText(/Cette page de la liste n’existe pas/)).toHaveLength(2);
    expect(api.requests).toEqual([]);
  });
});

describe('the artists list’s head', () => {
  const headOf = async (search: string) => {
    const context = {
      params: {},
      origin: 'https://radio.example.org',
      query: new URLSearchParams(search),
      radio: radioSettings(),
      href: declaredHref,
    };
    const store = makeStore();
    await Promise.all(playedArtistsPage.load!({ ...context, dispatch: store.dispatch }));
    return playedArtistsPage.head!({ ...context, state: store.getState() });
  };

  it('names a page and a search, canonical with them, and answers 404 past the last page', async () => {
    expect(await headOf('')).toEqual({ canonicalPath: '/artistes' });
    expect(await headOf('page=2')).toEqual({ title: 'Artistes, page 2', canonicalPath: '/artistes?page=2' });
    expect(await headOf('q=dub')).toEqual({ title: 'Recherche « dub » · Artistes', canonicalPath: '/artistes?q=dub' });
    expect((await headOf('page=3')).status).toBe(404);
    expect((await headOf('page=-1')).status).toBe(404);
  });
});
