import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { lastPayload, on, selectFeedLoaded, type ReplaySource } from '@collectif/shared';
import { podcast, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { PodcastsBlock } from './PodcastsBlock';
import { DEFAULT_COVER } from '@collectif/shared/tokens';

let api: FakeApi;

beforeEach(async () => {
  api = await startFakeApi({
    '/podcasts': (url) => ({
      body: Array.from({ length: Number(url.searchParams.get('limit') ?? 20) }, (_, i) => podcast(i + 1)),
    }),
  });
});

afterEach(async () => {
  await api.close();
});

describe('PodcastsBlock', () => {
  it('asks for the 8 newest podcasts and shows them with cover, title and description', async () => {
    const { store } = renderWithProviders(<PodcastsBlock />);
    expect(screen.getByRole('heading', { name: 'Derniers podcasts' })).toBeInTheDocument();
    expect(screen.getByText('Chargement des podcasts ...')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Derniers podcasts' });
    const cards = within(list).getAllByRole('button');
    expect(cards).toHaveLength(8);
    expect(api.requests).toEqual(['/podcasts?limit=8']);
    expect(cards[0]).toHaveAccessibleName('Écouter : Artiste 1 Émission 1 29 janv. 2024');
    const cover = within(cards[0]!).getByRole('presentation');
    expect(cover).toHaveAttribute('src', podcast(1).cover);
    expect(cover).toHaveAttribute('loading', 'lazy');
    expect(cover).toHaveAttribute('width', '500');
    // The feed counts as loaded, and the contract's event went out once.
    expect(selectFeedLoaded(store.getState())).toBe(true);
    expect(lastPayload('feed-loaded')).toEqual({});
  });

  it('sets the clicked podcast as the replay (replay-selected), also visible as a DOM event', async () => {
    const fromBus: ReplaySource[] = [];
    const fromDom: unknown[] = [];
    const off = on('replay-selected', (item) => fromBus.push(item));
    const listener = (event: Event) => fromDom.push((event as CustomEvent).detail);
    window.addEventListener('collectif:replay-selected', listener);
    renderWithProviders(<PodcastsBlock />);
    fireEvent.click(await screen.findByRole('button', { name: /Artiste 3 Émission 3/ }));
    expect(fromBus).toEqual([expect.objectContaining(podcast(3))]);
    expect(fromDom).toEqual([expect.objectContaining(podcast(3))]);
    off();
    window.removeEventListener('collectif:replay-selected', listener);
  });

  it('falls back to the default cover when an item has none or its cover fails', async () => {
    api.set('/podcasts', () => ({ body: [{ ...podcast(1), cover: '' }, podcast(2)] }));
    renderWithProviders(<PodcastsBlock />);
    const list = await screen.findByRole('list', { name: 'Derniers podcasts' });
    const [first, second] = within(list).getAllByRole('presentation');
    expect(first).toHaveAttribute('src', DEFAULT_COVER);
    fireEvent.error(second!);
    expect(second).toHaveAttribute('src', DEFAULT_COVER);
  });

  it('says so when there is no podcast yet', async () => {
    api.set('/podcasts', () => ({ body: [] }));
    renderWithProviders(<PodcastsBlock />);
    expect(await screen.findByText('Aucun podcast pour le moment.')).toBeInTheDocument();
  });

  it('shows a French error with a retry that works once the API is back', async () => {
    api.set('/podcasts', () => ({ status: 502, body: { error: 'upstream', message: 'Flux indisponible.' } }));
    renderWithProviders(<PodcastsBlock />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Les podcasts sont momentanément indisponibles.');
    api.set('/podcasts', () => ({ body: [podcast(1)] }));
    fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('button', { name: /Artiste 1/ })).toBeInTheDocument();
  });
});
