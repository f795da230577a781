import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { podcast, startFakeApi, type FakeApi } from '../testing/fakeApi';
import EpisodesPage from './EpisodesPage';

let api: FakeApi;

const episode = (n: number) => ({ ...podcast(n), slug: `episode-${String(n)}`, residences: [], styles: [] });

beforeEach(async () => {
  api = await startFakeApi({
    '/styles': () => ({ body: [] }),
    // A search's first page names the played artists it found (docs/artists.md).
    '/episodes': (url) => ({
      body: {
        items: [episode(1)],
        total: 1,
        page: 1,
        pages: 1,
        pageSize: 24,
        ...(url.searchParams.get('q') === 'basic'
          ? { artists: [{ slug: 'basic-channel', name: 'Basic Channel', plays: 3, releases: 0 }] }
          : {}),
      },
    }),
  });
});

afterEach(async () => {
  await api.close();
});

describe("the archive's search", () => {
  it('lists the played artists it found, each leading to their page, above the episodes', async () => {
    renderWithProviders(<EpisodesPage />, { route: '/emissions?q=basic' });
    const found = await screen.findByRole('list', { name: 'Artistes trouvés' });
    expect(within(found).getByRole('link', { name: 'Basic Channel' })).toHaveAttribute(
      'href',
      '/artistes/basic-channel',
    );
    expect(found).toHaveTextContent('Basic Channel 3 passages');
    expect(screen.getByRole('list', { name: 'Émissions' })).toBeInTheDocument();
  });

  it('lists none without a search', async () => {
    renderWithProviders(<EpisodesPage />, { route: '/emissions' });
    expect(await screen.findByRole('list', { name: 'Émissions' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Artistes' })).not.toBeInTheDocument();
  });
});
