import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { siteConfig } from '@collectif/shared';
import { release, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { ReleasesBlock } from './ReleasesBlock';

let api: FakeApi;

beforeEach(async () => {
  api = await startFakeApi({
    '/releases': (url) => ({
      body: Array.from({ length: Number(url.searchParams.get('limit') ?? 36) }, (_, i) => release(i + 1)),
    }),
  });
});

afterEach(async () => {
  await api.close();
});

describe('ReleasesBlock', () => {
  it('shows the first 4 releases, each opening the label sales page in a new tab', async () => {
    renderWithProviders(<ReleasesBlock />);
    expect(screen.getByRole('heading', { name: 'Dernières sorties' })).toBeInTheDocument();
    expect(screen.getByText('Chargement des sorties ...')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Dernières sorties' });
    const links = within(list).getAllByRole('link');
    expect(api.requests).toEqual(['/releases?limit=4']);
    expect(links).toHaveLength(4);
    expect(links[0]).toHaveAccessibleName('Sortie 1 Artiste 1 (nouvel onglet)');
    expect(links[0]).toHaveAttribute('href', `${siteConfig.label.salesBaseUrl}/album/sortie-1`);
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer');
    const cover = within(links[1]!).getByRole('presentation');
    expect(cover).toHaveAttribute('src', release(2).image);
    expect(cover).toHaveAttribute('width', '600');
    expect(cover).toHaveAttribute('height', '600');
  });

  it('shows a French error with a retry, and an empty state', async () => {
    api.set('/releases', () => ({ status: 503, body: { error: 'upstream', message: 'Label indisponible.' } }));
    renderWithProviders(<ReleasesBlock />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Les sorties du label sont momentanément indisponibles.',
    );
    api.set('/releases', () => ({ body: [] }));
    fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('Aucune sortie pour le moment.')).toBeInTheDocument();
  });
});
