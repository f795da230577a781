import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '@collectif/shared/test-utils';
import {
  on,
  radioSettings,
  type QueueAddRequest,
  SiteEnvironmentContext,
  sitePages,
  type ReplaySource,
  type Residence,
} from '@collectif/shared';
import { ResidenceDetail } from '../residences/ResidenceDetail';
import { shippedResidences as residences } from '../testing/fakeApi';
import { podcast, startFakeApi, type FakeAnswer, type FakeApi } from '../testing/fakeApi';
import ResidencePage from './ResidencePage';
// A residence's description as a built part holds it: sanitised by the build (docs/rendering.md,
// « Safe HTML »), shown as is.
import { safeHtml } from '@collectif/shared/build/safe-html.cjs';

let api: FakeApi;

let scrollTo: jest.Mock;

beforeEach(async () => {
  scrollTo = jest.fn();
  window.scrollTo = scrollTo;
  api = await startFakeApi({
    // The server's slash rule, as the contract describes it: each trimmed name, de-duplicated by link.
    '/podcasts': (url) => {
      const names = (url.searchParams.get('q') ?? '').split('/').map((n) => n.trim());
      const feed = [
        podcast(1, 'Kalibre', 'Double Détente #12'),
        podcast(2, 'Quelqu’un d’autre', 'Autre émission'),
        podcast(3, 'Mona Vex', 'Double Détente #11'),
        podcast(4, 'Kalibre & Mona Vex', 'Double Détente #10'),
      ];
      return { body: feed.filter((item) => names.some((n) => item.artist.includes(n))) };
    },
  });
});

afterEach(async () => {
  await api.close();
});

function Routed() {
  return (
    <Routes>
      <Route path="residences" element={<p>Liste des résidences</p>} />
      <Route path="residences/:id" element={<ResidencePage />} />
    </Routes>
  );
}

// Residences of the tests' own: the shipped content is the volunteers' to change (its schema is
// checked in shared/src/content.test.ts). Only the routing tests use it, through its first entry.
const garage: Residence = {
  id: 'garage-test',
  artist: 'Deux Pas',
  show: 'Garage du lundi',
  description: safeHtml('Du <em>2-step</em> et du breakbeat.\nUn lundi sur deux.'),
  styles: ['uk garage', 'breakbeat'],
  soundcloud: 'https://soundcloud.com/deux-pas',
  bandcamp: 'https://deux-pas.bandcamp.com',
};
const dub: Residence = {
  id: 'dub-test',
  artist: 'Racine',
  show: 'Basses',
  description: 'Dub.',
  styles: ['dub', '', 'steppers'],
};
const doubleDetente: Residence = {
  id: 'kalibre-mona-vex',
  artist: 'Kalibre / Mona Vex',
  show: 'Double Détente',
  description: 'Deux sélecteurs.',
  styles: ['jungle'],
};
const quiet: Residence = { id: 'calme', artist: 'Personne Encore', show: 'Silence', description: '', styles: [] };

function Detail({ residence }: { residence: Residence }) {
  return <ResidenceDetail residence={residence} />;
}

describe('ResidencePage', () => {
  it('finds the residence of the address and scrolls to the top', async () => {
    const residence = residences[0]!;
    renderWithProviders(<Routed />, { route: `/residences/${residence.id}` });
    expect(await screen.findByRole('heading', { level: 1, name: residence.artist })).toBeInTheDocument();
    expect(screen.getByText(residence.show)).toBeInTheDocument();
    const header = screen.getByRole('banner').querySelector('img');
    expect(header).toHaveAttribute('src', `/assets/images/residences/${residence.id}-header.webp`);
    expect(header).toHaveAttribute('width', '1600');
    expect(header).toHaveAttribute('height', '600');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    // That residence alone, not the whole list: the page carries only what it shows.
    expect(api.requests[0]).toBe(`/content/residences?id=${encodeURIComponent(residence.id)}`);
  });

  it('offers « Soutenir <artist> », a gift in its name on /soutenir, while HelloAsso takes payments on the site', async () => {
    const residence = residences.find((entry) => entry.id === 'axonberg')!;
    const support = { page: '/soutenir', external: 'https://example.org/don' };
    renderWithProviders(
      <SiteEnvironmentContext value={{ radio: { ...radioSettings(), support }, pages: sitePages() }}>
        <Routed />
      </SiteEnvironmentContext>,
      { route: '/residences/axonberg' },
    );
    expect(await screen.findByRole('link', { name: `Soutenir ${residence.artist}` })).toHaveAttribute(
      'href',
      '/soutenir?residence=axonberg',
    );
  });

  it('offers no « Soutenir » of a residence when an admin turned HelloAsso off', async () => {
    const residence = residences.find((entry) => entry.id === 'axonberg')!;
    renderWithProviders(<Routed />, { route: '/residences/axonberg' });
    expect(await screen.findByRole('heading', { level: 1, name: residence.artist })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Soutenir/ })).not.toBeInTheDocument();
  });

  it('finds a residence whose address was retyped in another case', async () => {
    const residence = residences.find((entry) => entry.id === 'axonberg')!;
    renderWithProviders(<Routed />, { route: '/residences/AXONBERG' });
    expect(await screen.findByRole('heading', { level: 1, name: residence.artist })).toBeInTheDocument();
  });

  it('shows the sanitised description, the style tags and only the links it has', () => {
    const residence = garage;
    renderWithProviders(<Detail residence={residence} />);

    const emphasis = screen.getByText('2-step');
    expect(emphasis.tagName).toBe('EM');
    expect(emphasis.parentElement?.querySelector('br')).not.toBeNull();

    const styles = within(screen.getByRole('list', { name: 'Styles' })).getAllByRole('listitem');
    expect(styles.map((s) => s.textContent)).toEqual(['uk garage', 'breakbeat']);

    const links = within(screen.getByRole('list', { name: 'Liens' })).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['SoundCloud (nouvel onglet)', 'Bandcamp (nouvel onglet)']);
    expect(links[0]).toHaveAttribute('href', residence.soundcloud);
    for (const link of links) expect(link).toHaveAttribute('target', '_blank');
  });

  it('skips empty style strings', () => {
    renderWithProviders(<Detail residence={dub} />);
    const styles = within(screen.getByRole('list', { name: 'Styles' })).getAllByRole('listitem');
    expect(styles.map((s) => s.textContent)).toEqual(['dub', 'steppers']);
  });

  it('lists the shows of every name of a slash-separated artist, and only theirs, once the feed is loaded', async () => {
    let release: (answer: FakeAnswer) => void = () => undefined;
    const held = new Promise<FakeAnswer>((resolve) => {
      release = resolve;
    });
    api.set('/podcasts', () => held);
    renderWithProviders(<Detail residence={doubleDetente} />);
    expect(screen.getByRole('heading', { name: 'Dernières émissions' })).toBeInTheDocument();
    expect(screen.getByText('Chargement des émissions ...')).toBeInTheDocument();
    await waitFor(() => {
      expect(api.requests.filter((path) => path.startsWith('/podcasts'))).toEqual([
        `/podcasts?q=${encodeURIComponent('Kalibre / Mona Vex').replace(/%20/g, '+')}`,
      ]);
    });
    expect(screen.queryByRole('list', { name: /Émissions de/ })).not.toBeInTheDocument();

    release({ body: [podcast(1, 'Kalibre', 'Double Détente #12'), podcast(3, 'Mona Vex', 'Double Détente #11')] });
    const list = await screen.findByRole('list', { name: 'Émissions de Kalibre / Mona Vex' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Écouter : KalibreDouble Détente #1229 janv. 2024',
      'Écouter : Mona VexDouble Détente #1127 janv. 2024',
    ]);
  });

  it('plays a show on click (replay-selected)', async () => {
    const seen: ReplaySource[] = [];
    const off = on('replay-selected', (item) => seen.push(item));
    renderWithProviders(<Detail residence={doubleDetente} />);
    const list = await screen.findByRole('list', { name: /Émissions de/ });
    expect(within(list).getAllByRole('button')).toHaveLength(3);
    fireEvent.click(within(list).getByRole('button', { name: /Double Détente #11/ }));
    expect(seen).toEqual([expect.objectContaining(podcast(3, 'Mona Vex', 'Double Détente #11'))]);
    off();
  });

  it("« Tout écouter » puts the residence's episodes in the player's queue, newest first; a card adds its own", async () => {
    // Episodes with a page (a slug); one without cannot be queued (the queue holds slugs only).
    api.set('/podcasts', () => ({
      body: [
        { ...podcast(1, 'Kalibre', 'Double Détente #12'), slug: 'kalibre-double-detente-12' },
        podcast(2, 'Kalibre', 'Sans page'),
        { ...podcast(3, 'Mona Vex', 'Double Détente #11'), slug: 'mona-vex-double-detente-11' },
      ],
    }));
    const added: QueueAddRequest[] = [];
    const off = on('queue-add', (request) => added.push(request));
    renderWithProviders(<Detail residence={doubleDetente} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Tout écouter' }));
    const list = screen.getByRole('list', { name: 'Émissions de Kalibre / Mona Vex' });
    expect(
      within(list)
        .getAllByRole('button', { name: /^Ajouter à la file/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'Ajouter à la file : Kalibre · Double Détente #12',
      'Ajouter à la file : Mona Vex · Double Détente #11',
    ]);
    fireEvent.click(within(list).getByRole('button', { name: 'Ajouter à la file : Mona Vex · Double Détente #11' }));
    off();
    expect(added).toEqual([
      {
        items: [{ slug: 'kalibre-double-detente-12' }, { slug: 'mona-vex-double-detente-11' }],
        label: 'Kalibre / Mona Vex',
      },
      { items: [{ slug: 'mona-vex-double-detente-11' }] },
    ]);
  });

  it('says so when the feed has no show for the residence', async () => {
    renderWithProviders(<Detail residence={quiet} />);
    expect(
      await screen.findByText('Aucune émission de cette résidence dans le flux pour le moment.'),
    ).toBeInTheDocument();
  });

  it('shows a French error with a retry when the feed cannot be read', async () => {
    api.set('/podcasts', () => ({ status: 504, body: { error: 'timeout', message: 'Le flux ne répond pas.' } }));
    renderWithProviders(<Detail residence={quiet} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Les émissions sont momentanément indisponibles.');
    api.set('/podcasts', () => ({ body: [podcast(7, 'Personne Encore', 'Synapses #7')] }));
    fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('button', { name: /Synapses #7/ })).toBeInTheDocument();
  });

  it('shows the French error, not a crash, when the feed answers something that is not a list', async () => {
    api.set('/podcasts', () => ({ body: {} }));
    renderWithProviders(<Detail residence={quiet} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Les émissions sont momentanément indisponibles.');
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('shows "Résidence introuvable" with a link back to the list for an unknown id', async () => {
    renderWithProviders(<Routed />, { route: '/residences/nexiste-pas' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Résidence introuvable' })).toBeInTheDocument();
    const back = screen.getByRole('link', { name: 'Voir toutes les résidences' });
    expect(back).toHaveAttribute('href', '/residences');
    fireEvent.click(back);
    expect(screen.getByText('Liste des résidences')).toBeInTheDocument();
    // Only that residence was asked for, alone: an unknown one has no episodes, shows or events.
    expect(api.requests).toEqual(['/content/residences?id=nexiste-pas']);
  });

  it('says the residences cannot be had, not that this one does not exist, when their answer fails', async () => {
    api.set('/content/residences', () => 'network-error');
    renderWithProviders(<Routed />, { route: `/residences/${residences[0]!.id}` });
    expect(
      await screen.findByText('Les résidences sont momentanément indisponibles. Réessayez dans un instant.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Résidence introuvable' })).not.toBeInTheDocument();
  });
});

describe('ResidenceDetail with hostile content, as the build leaves it', () => {
  it('never runs a script or an event handler from the description', () => {
    const hostile: Residence = {
      id: 'piege',
      artist: 'Piège',
      show: 'Test',
      description: safeHtml(
        'Texte <em>ok</em><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">lien</a><svg onload="window.__pwned = 4"></svg>',
      ),
      styles: [],
    };
    renderWithProviders(<ResidenceDetail residence={hostile} />);
    const emphasis = screen.getByText('ok');
    const description = emphasis.parentElement!;
    expect(description.innerHTML).toBe('Texte <em>ok</em><a target="_blank" rel="noopener noreferrer">lien</a>');
    fireEvent.click(screen.getByText('lien'));
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    expect(screen.queryByRole('list', { name: 'Styles' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Liens' })).not.toBeInTheDocument();
  });
});
