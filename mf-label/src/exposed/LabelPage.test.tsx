import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  configureApiBase,
  radioSettings,
  releaseUrl,
  siteConfig,
  SiteEnvironmentContext,
  sitePages,
  type Release,
} from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import LabelPage from './LabelPage';

/** A stand-in for the label service on a loopback port: answers what the current test sets. */
interface FakeAnswer {
  status: number;
  body: unknown;
}

let server: FakeServer;
let answer: FakeAnswer;
const requests: string[] = [];

const releases: Release[] = Array.from({ length: 9 }, (_, i) => ({
  href: `/album/sortie-${String(i + 1)}`,
  image: `/assets/images/releases/sortie-${String(i + 1)}.webp`,
  title: `Sortie ${String(i + 1)}`,
  artist: i % 3 === 0 ? 'Various Artists' : `Artiste ${String(i + 1)}`,
}));

beforeAll(async () => {
  server = await startFakeServer({
    onRequest: ({ method, url }) => requests.push(`${method} ${url}`),
    fallback: (request, response) => json(answer.body, answer.status)(request, response),
  });
  configureApiBase(`${server.origin}/api`);
});

afterAll(() => server.close());

let windowScrollTo: jest.SpiedFunction<typeof window.scrollTo>;

beforeEach(() => {
  requests.length = 0;
  answer = { status: 200, body: releases };
  // jsdom does not scroll; the page's smooth scroll to top is observed here.
  windowScrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
});

const unavailable = {
  status: 503,
  body: { error: 'label_unavailable', message: 'Le service du label ne répond pas.' },
};

describe('LabelPage', () => {
  it('asks the label service for the releases and shows one card per release', async () => {
    renderWithProviders(<LabelPage />, { route: '/label' });

    expect(screen.getByRole('heading', { level: 1, name: 'Label' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Chargement des sorties du label ...');

    const grid = await screen.findByRole('list', { name: 'Sorties du label' });
    const cards = within(grid).getAllByRole('listitem');
    expect(cards).toHaveLength(releases.length);
    expect(within(cards[0]!).getByRole('heading', { name: 'Sortie 1' })).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Various Artists')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Artiste 2')).toBeInTheDocument();
    // The `?` of no parameters, which RTK Query writes: Node 24's fetch sends it, as browsers do
    // (Node 20's dropped it).
    expect(requests).toEqual(['GET /api/releases?']);
  });

  it('leads artists to « Envoyer une démo », the label’s form', async () => {
    renderWithProviders(<LabelPage />, { route: '/label' });
    expect(screen.getByRole('link', { name: 'Envoyer une démo' })).toHaveAttribute('href', '/label/envoyer-une-demo');
    await screen.findByRole('list', { name: 'Sorties du label' });
  });

  it('shows no dead link where the site declares no demo page', async () => {
    renderWithProviders(
      <SiteEnvironmentContext
        value={{ radio: radioSettings(), pages: sitePages().filter((page) => page.module !== 'SendDemoPage') }}
      >
        <LabelPage />
      </SiteEnvironmentContext>,
      { route: '/label' },
    );
    await screen.findByRole('list', { name: 'Sorties du label' });
    expect(screen.queryByRole('link', { name: 'Envoyer une démo' })).not.toBeInTheDocument();
  });

  it("opens each release on the label's sales page in a new tab", async () => {
    renderWithProviders(<LabelPage />, { route: '/label' });

    const link = await screen.findByRole('link', { name: /Sortie 5/ });
    expect(link).toHaveAttribute('href', `${siteConfig.label.salesBaseUrl}/album/sortie-5`);
    expect(link).toHaveAttribute('href', releaseUrl('/album/sortie-5'));
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener') as string);
    expect(link).toHaveAccessibleName('Sortie 5 Artiste 5 (nouvel onglet)');
  });

  it("links a release to its artist's page when the played artists' index has one, and only then", async () => {
    answer = {
      status: 200,
      body: releases.map((release, index) =>
        index === 1
          ? { ...release, artistSlug: 'artiste-2' }
          : index === 2
            ? { ...release, artistSlug: '../admin' }
            : release,
      ),
    };
    renderWithProviders(<LabelPage />, { route: '/label' });
    const grid = await screen.findByRole('list', { name: 'Sorties du label' });
    expect(within(grid).getByRole('link', { name: 'Artiste : Artiste 2' })).toHaveAttribute(
      'href',
      '/artistes/artiste-2',
    );
    // A slug that cannot make an address is none.
    expect(within(grid).getAllByRole('link', { name: /^Artiste :/ })).toHaveLength(1);
  });

  it('sizes every cover and loads only the first row at once', async () => {
    const { container } = renderWithProviders(<LabelPage />, { route: '/label' });
    await screen.findByRole('list', { name: 'Sorties du label' });

    // Covers are decorative (the title and artist are the link's text), so they are read from the DOM.
    const covers = [...container.querySelectorAll('img')];
    expect(covers).toHaveLength(releases.length);
    for (const cover of covers) {
      expect(cover).toHaveAttribute('width', '600');
      expect(cover).toHaveAttribute('height', '600');
      expect(cover).toHaveAttribute('alt', '');
    }
    expect(covers.map((c) => c.getAttribute('loading'))).toEqual([
      'eager',
      'eager',
      'eager',
      'eager',
      'lazy',
      'lazy',
      'lazy',
      'lazy',
      'lazy',
    ]);
    expect(covers[2]).toHaveAttribute('src', '/assets/images/releases/sortie-3.webp');
  });

  it('scrolls smoothly to the top on entry', async () => {
    renderWithProviders(<LabelPage />, { route: '/label' });
    expect(windowScrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0, behavior: 'smooth' }));
    await screen.findByRole('list', { name: 'Sorties du label' });
  });

  it('says so in French when the label service is down, and loads again on « Réessayer »', async () => {
    answer = unavailable;
    renderWithProviders(<LabelPage />, { route: '/label' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Le catalogue du label est momentanément indisponible. Réessayez dans un instant.');
    expect(screen.queryByRole('list', { name: 'Sorties du label' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Label' })).toBeInTheDocument();

    answer = { status: 200, body: releases };
    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));

    expect(await screen.findByRole('list', { name: 'Sorties du label' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(requests).toEqual(['GET /api/releases?', 'GET /api/releases?']);
  });

  it('shows the error again when the retry fails too', async () => {
    answer = unavailable;
    renderWithProviders(<LabelPage />, { route: '/label' });

    await userEvent.click(await screen.findByRole('button', { name: 'Réessayer' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('momentanément indisponible');
    expect(requests).toHaveLength(2);
  });

  it('gives the French error, not a crash, when the service answers something that is not a list', async () => {
    for (const body of [{}, '<!doctype html><h1>Maintenance</h1>', [null, 42, { title: 1, href: {} }]]) {
      answer = { status: 200, body };
      const { unmount } = renderWithProviders(<LabelPage />, { route: '/label' });
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Le catalogue du label est momentanément indisponible.',
      );
      expect(screen.getByRole('button', { name: 'Réessayer' })).toBeInTheDocument();
      unmount();
    }
  });

  it('shows the usable releases of an answer and leaves out the broken ones', async () => {
    answer = {
      status: 200,
      body: [null, { ...releases[0], title: 7 }, { ...releases[1], href: 'http://[' }, releases[2]],
    };
    renderWithProviders(<LabelPage />, { route: '/label' });

    const grid = await screen.findByRole('list', { name: 'Sorties du label' });
    expect(within(grid).getAllByRole('listitem')).toHaveLength(1);
    expect(within(grid).getByRole('heading', { name: 'Sortie 3' })).toBeInTheDocument();
  });

  it('says when the catalogue is empty instead of leaving a blank page', async () => {
    answer = { status: 200, body: [] };
    renderWithProviders(<LabelPage />, { route: '/label' });

    expect(await screen.findByText('Aucune sortie pour le moment : revenez bientôt !')).toBeInTheDocument();
  });
});
