import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { podcast, startFakeApi, type FakeApi } from '../testing/fakeApi';
import EpisodesPage from './EpisodesPage';

let api: FakeApi;

const episode = (n: number) => ({ ...podcast(n), slug: `episode-${String(n)}`, residences: [], styles: [] });

beforeEach(async () => {
  api = await startFakeApi({
    '/styles': () => ({ body: [{ name: 'jungle', count: 3 }] }),
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

describe("the archive's filters", () => {
  it('keeps both of two choices made before the page renders again (a style, then a residence)', async () => {
    renderWithProviders(<EpisodesPage />, { route: '/emissions' });
    const style = screen.getByLabelText('Style');
    const residence = screen.getByLabelText('Résidence');
    await screen.findByRole('option', { name: 'jungle' });
    await screen.findByRole('option', { name: 'Axonberg' });
    // Both from the same render, as on a loaded phone whose page has not rendered the first yet.
    act(() => {
      fireEvent.change(style, { target: { value: 'jungle' } });
      fireEvent.change(residence, { target: { value: 'axonberg' } });
    });
    await waitFor(() => {
      expect(residence).toHaveValue('axonberg');
    });
    expect(style).toHaveValue('jungle');
    await waitFor(() => {
      expect(api.requests.some((path) => path.includes('style=jungle') && path.includes('residence=axonberg'))).toBe(
        true,
      );
    });
  });
});
