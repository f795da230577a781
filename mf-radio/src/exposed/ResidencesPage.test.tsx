import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { shippedResidences as residences, startFakeApi, type FakeApi } from '../testing/fakeApi';
import ResidencesPage from './ResidencesPage';

let scrollTo: jest.Mock;
let api: FakeApi;

beforeEach(async () => {
  scrollTo = jest.fn();
  window.scrollTo = scrollTo;
  // The residences come from the site's content (GET /api/content/residences), as shipped.
  api = await startFakeApi();
});

afterEach(async () => {
  await api.close();
});

function Routed() {
  return (
    <Routes>
      <Route path="residences" element={<ResidencesPage />} />
      <Route path="residences/:id" element={<p>Détail</p>} />
    </Routes>
  );
}

describe('ResidencesPage', () => {
  it('lists every residence as a card titled with the artist, with its generated picture', async () => {
    renderWithProviders(<Routed />, { route: '/residences' });
    expect(screen.getByRole('heading', { level: 1, name: 'Résidences' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Émissions résidentes' });
    const cards = within(list).getAllByRole('link');
    expect(cards).toHaveLength(residences.length);
    const first = residences[0]!;
    expect(within(cards[0]!).getByRole('heading', { name: first.artist })).toBeInTheDocument();
    const image = within(cards[0]!).getByRole('presentation');
    expect(image).toHaveAttribute('src', `/assets/images/residences/${first.id}-400.webp`);
    expect(image).toHaveAttribute(
      'srcset',
      `/assets/images/residences/${first.id}-400.webp 400w, /assets/images/residences/${first.id}-800.webp 800w`,
    );
    expect(image).toHaveAttribute('width', '400');
    expect(image).toHaveAttribute('height', '400');
    // The first row (4 cards on a wide screen) loads at once, the rest lazily.
    const loading = cards.map((card) => within(card).getByRole('presentation').getAttribute('loading'));
    expect(loading).toEqual(cards.map((_, i) => (i < 4 ? 'eager' : 'lazy')));
  });

  it('scrolls smoothly to the top on entry', () => {
    renderWithProviders(<Routed />, { route: '/residences' });
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('goes to residences/{id} on a click', async () => {
    renderWithProviders(<Routed />, { route: '/residences' });
    const residence = residences[0]!;
    const link = within(await screen.findByRole('list', { name: 'Émissions résidentes' })).getAllByRole('link')[0]!;
    expect(link).toHaveAccessibleName(new RegExp(`^${residence.artist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(link).toHaveAttribute('href', `/residences/${encodeURIComponent(residence.id)}`);
    fireEvent.click(link);
    expect(screen.getByText('Détail')).toBeInTheDocument();
  });

  it('shows what volunteers saved last, with no rebuild: the list the site serves', async () => {
    api.set('/content/residences', () => ({
      body: [
        {
          id: 'nouvelle',
          artist: 'Nouvelle Venue',
          show: 'Premier Mardi',
          description: 'Tous les premiers mardis.',
          styles: [],
        },
      ],
    }));
    renderWithProviders(<Routed />, { route: '/residences' });
    const list = await screen.findByRole('list', { name: 'Émissions résidentes' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((card) => card.getAttribute('href')),
    ).toEqual(['/residences/nouvelle']);
    expect(within(list).getByRole('heading', { name: 'Nouvelle Venue' })).toBeInTheDocument();
  });

  it('says in French when the residences cannot be had, and tries again on request', async () => {
    let fail = true;
    api.set('/content/residences', () =>
      fail ? { status: 503, body: { error: 'unavailable', message: 'Indisponible.' } } : { body: residences },
    );
    renderWithProviders(<Routed />, { route: '/residences' });
    expect(
      await screen.findByText('Les résidences sont momentanément indisponibles. Réessayez dans un instant.'),
    ).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    const list = await screen.findByRole('list', { name: 'Émissions résidentes' });
    expect(within(list).getAllByRole('link')).toHaveLength(residences.length);
  });
});
