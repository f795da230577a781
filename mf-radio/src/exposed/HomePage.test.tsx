import { within, screen } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { installLayoutObservers, removeLayoutObservers, setReducedMotion } from '../testing/browserApis';
import { podcast, release, startFakeApi, type FakeApi } from '../testing/fakeApi';
import HomePage from './HomePage';

let api: FakeApi;

beforeEach(async () => {
  installLayoutObservers();
  setReducedMotion(true);
  api = await startFakeApi({
    '/islive': () => ({ body: { live: false } }),
    '/podcasts': () => ({ body: [podcast(1), podcast(2)] }),
    '/releases': () => ({ body: [release(1)] }),
  });
});

afterEach(async () => {
  removeLayoutObservers();
  await api.close();
});

describe('HomePage', () => {
  it('shows its five blocks in the order of the spec', async () => {
    renderWithProviders(<HomePage />);
    await screen.findByRole('button', { name: 'Diapositive suivante' });
    await screen.findByRole('button', { name: /Artiste 2/ });
    await screen.findByRole('link', { name: /Sortie 1/ });
    await screen.findByRole('button', { name: 'Rafraîchir' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'À la une',
      'Pas de direct au studio actuellement',
      'Radio Schedule',
      'Derniers podcasts',
      'Dernières sorties',
    ]);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('keeps every block usable when the whole /api is down', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await api.close();
    api = await startFakeApi();
    // The slides are content the site serves (docs/content.md): down with the rest.
    api.set('/content/slides', () => ({ status: 500, body: { error: 'internal', message: 'Panne.' } }));
    renderWithProviders(<HomePage />);
    expect(await screen.findByText('Les podcasts sont momentanément indisponibles.')).toBeInTheDocument();
    expect(await screen.findByText('Les sorties du label sont momentanément indisponibles.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Rafraîchir' })).toBeInTheDocument();
    const featured = await screen.findByRole('region', { name: 'À la une' });
    expect(featured).toHaveTextContent('La une est momentanément indisponible.');
    expect(within(featured).getByRole('button', { name: 'Réessayer' })).toBeInTheDocument();
    errors.mockRestore();
  });

  it('keeps every block usable when /api answers the wrong shapes', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    api.set('/islive', () => ({ body: { live: 'oui' } }));
    api.set('/podcasts', () => ({ body: {} }));
    api.set('/releases', () => ({ body: [null, 42, { title: 1, href: {} }] }));
    renderWithProviders(<HomePage />);
    expect(await screen.findByText('Les podcasts sont momentanément indisponibles.')).toBeInTheDocument();
    expect(await screen.findByText('Les sorties du label sont momentanément indisponibles.')).toBeInTheDocument();
    // A live flag that is neither true nor false is a failed check: logged, and the panel stays.
    expect(await screen.findByRole('button', { name: 'Rafraîchir' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeInTheDocument();
    // The answer failed its schema: logged like any failed check, with what was wrong in it.
    expect(errors).toHaveBeenCalledWith(
      'Erreur lors du refresh:',
      expect.objectContaining({ status: 'CUSTOM_ERROR', data: { live: 'oui' } }),
    );
    errors.mockRestore();
  });
});
