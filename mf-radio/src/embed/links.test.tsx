import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import type { Episode, Residence } from '@collectif/shared';
import { ResidenceDetail } from '../residences/ResidenceDetail';
import EpisodePage from '../exposed/EpisodePage';
import { podcast, startFakeApi, type FakeApi } from '../testing/fakeApi';

// « Intégrer » on an episode's page and a residence's: the configurator preset on it (docs/embed.md).

const EPISODE: Episode = {
  ...podcast(1, 'Axonberg', 'Synapses #11'),
  slug: 'axonberg-synapses-11',
  residences: [],
  styles: [],
};

let api: FakeApi;

beforeEach(async () => {
  api = await startFakeApi({ [`/episodes/${EPISODE.slug}`]: () => ({ body: EPISODE }) });
  window.scrollTo = () => undefined;
});

afterEach(async () => {
  await api.close();
});

const residence = (id: string): Residence => ({ id, artist: 'Deux Pas', show: 'Garage', description: '', styles: [] });

describe('« Intégrer le lecteur » links', () => {
  it('on a residence, under « Sur votre site »', () => {
    renderWithProviders(<ResidenceDetail residence={residence('deux-pas')} />);
    const section = screen.getByRole('region', { name: 'Sur votre site' });
    expect(within(section).getByRole('link', { name: 'Intégrer le lecteur' })).toHaveAttribute(
      'href',
      '/integrer?residence=deux-pas',
    );
  });

  it('on no residence whose id a player cannot read back from an address', () => {
    renderWithProviders(<ResidenceDetail residence={residence('130E0A')} />);
    expect(screen.queryByRole('region', { name: 'Sur votre site' })).not.toBeInTheDocument();
  });

  it('on an episode, among its actions', async () => {
    renderWithProviders(<EpisodePage />, { route: `/emissions/${EPISODE.slug}`, path: 'emissions/:slug' });
    const link = await screen.findByRole('link', { name: 'Intégrer' });
    expect(link).toHaveAttribute('href', '/integrer?episode=axonberg-synapses-11');
    expect(link.closest('.episode__actions')).toContainElement(screen.getByRole('button', { name: 'Partager' }));
  });
});
