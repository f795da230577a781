import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { residences } from '../residences/residences';
import ResidencesPage from './ResidencesPage';

let scrollTo: jest.Mock;

beforeEach(() => {
  scrollTo = jest.fn();
  window.scrollTo = scrollTo;
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
  it('lists every residence as a card titled with the artist, with its generated picture', () => {
    renderWithProviders(<Routed />, { route: '/residences' });
    expect(screen.getByRole('heading', { level: 1, name: 'Résidences' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Émissions résidentes' });
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

  it('goes to residences/{id} on a click', () => {
    renderWithProviders(<Routed />, { route: '/residences' });
    const residence = residences[0]!;
    const link = within(screen.getByRole('list', { name: 'Émissions résidentes' })).getAllByRole('link')[0]!;
    expect(link).toHaveAccessibleName(new RegExp(`^${residence.artist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(link).toHaveAttribute('href', `/residences/${encodeURIComponent(residence.id)}`);
    fireEvent.click(link);
    expect(screen.getByText('Détail')).toBeInTheDocument();
  });
});
