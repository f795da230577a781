import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase, radioSettings, SiteEnvironmentContext, sitePages } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import SupportPage from './SupportPage';

// « Nous soutenir » against a fake /api on loopback (docs/support.md, « The page »). Going to
// HelloAsso's page itself is a navigation jsdom cannot make: the page's link to it is checked here,
// the whole way in Chromium (e2e/tests/support.spec.ts).

const EXTERNAL = 'https://example.org/soutenir';
const FORM = 'https://www.helloasso-sandbox.com/associations/collectif/adhesions/adhesion-2026';
const PAYMENT = 'https://www.helloasso-sandbox.com/associations/collectif/checkout/123';

const answer = {
  helloasso: true,
  external: EXTERNAL,
  membership: {
    formUrl: FORM,
    tiers: [
      { id: 11, label: 'Adhésion solidaire', price: 500, description: 'Pour les petits budgets.' },
      { id: 12, label: 'Adhésion', price: 1500 },
    ],
  },
  donation: {
    suggested: [1000, 2000, 5000],
    min: 100,
    max: 100_000,
    monthlyUrl: 'https://www.helloasso-sandbox.com/associations/collectif/formulaires/1',
  },
  progress: { year: 2026, members: 142, goal: 200, at: '2026-11-26T13:05:00.000Z', stale: false },
  taxReceipt: false,
};

let api: FakeServer;
/** The navigations the page attempted: jsdom cannot make them, and says so as an error of its console. */
let navigations: number;
let support: { status: number; body: unknown };
let don: { status: number; body: unknown };

beforeEach(async () => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  navigations = 0;
  const report = console.error.bind(console);
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes('Not implemented: navigation')) navigations += 1;
    else report(...args);
  });
  support = { status: 200, body: answer };
  don = { status: 200, body: { redirectUrl: PAYMENT } };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' },
    routes: {
      '/api/support': (request, response) => json(support.body, support.status)(request, response),
      '/api/support/don': (request, response) => json(don.body, don.status)(request, response),
      '/api/support/adhesion': json({ redirectUrl: FORM }),
      '/api/content/residences': (request, response) => {
        const id = new URL(request.url, api.origin).searchParams.get('id');
        json(
          id === 'axonberg'
            ? [{ id: 'axonberg', artist: 'Axonberg', show: 'Synapses', description: 'Techno.', styles: [] }]
            : [],
        )(request, response);
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

/** The writes the page sent, each with its body read. */
const writes = () =>
  api.requests
    .filter((request) => request.method === 'POST')
    .map((request) => [request.path, JSON.parse(request.body) as unknown]);

async function renderPage(route = '/soutenir') {
  const rendered = renderWithProviders(<SupportPage />, { route });
  await screen.findByRole('heading', { level: 2, name: /Faire un don|Soutenir|Adhérer ou donner/ });
  return rendered;
}

describe('/soutenir', () => {
  it('shows the year’s members toward the goal, the tiers, and what HelloAsso is', async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Nous soutenir' })).toBeInTheDocument();
    expect(screen.getByText('142 adhérents en 2026')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: '142 adhérents en 2026' });
    expect(bar).toHaveAttribute('aria-valuenow', '142');
    expect(bar).toHaveAttribute('aria-valuemax', '200');
    expect(screen.getByText('Objectif : 200 adhérents')).toBeInTheDocument();
    const tiers = screen.getByRole('list');
    expect(
      within(tiers)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Adhésion solidaire', 'Adhésion']);
    expect(within(tiers).getByRole('link', { name: 'Adhérer : Adhésion, 15 €' })).toHaveAttribute('href', FORM);
    expect(screen.getByText(/le site du collectif ne voit jamais votre carte/)).toBeInTheDocument();
    expect(screen.getByText(/contribution volontaire à HelloAsso/)).toBeInTheDocument();
    expect(screen.getByText(/ne délivre pas de reçu fiscal/)).toBeInTheDocument();
  });

  it('says a tax receipt is sent when the association may give one', async () => {
    support = { status: 200, body: { ...answer, taxReceipt: true } };
    await renderPage();
    expect(screen.getByText(/Un reçu fiscal vous est envoyé/)).toBeInTheDocument();
  });

  it('sends a suggested gift and leads to HelloAsso’s payment page', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('radio', { name: '50 €' }));
    await userEvent.click(screen.getByRole('button', { name: 'Donner 50 €' }));
    expect(await screen.findByRole('link', { name: 'Ouvrir la page de HelloAsso' })).toHaveAttribute('href', PAYMENT);
    expect(writes()).toEqual([['/api/support/don', { amount: 5000 }]]);
    expect(navigations).toBe(1);
  });

  it('sends a free amount typed in euros, in cents', async () => {
    await renderPage();
    await userEvent.type(screen.getByLabelText('Autre montant, en euros'), '12,50');
    expect(screen.getByRole('radio', { name: 'Autre montant' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Donner 12,50 €' }));
    await screen.findByRole('link', { name: 'Ouvrir la page de HelloAsso' });
    expect(writes()).toEqual([['/api/support/don', { amount: 1250 }]]);
  });

  it('gives with Enter in the free amount’s field', async () => {
    await renderPage();
    await userEvent.type(screen.getByLabelText('Autre montant, en euros'), '15{Enter}');
    await screen.findByRole('link', { name: 'Ouvrir la page de HelloAsso' });
    expect(writes()).toEqual([['/api/support/don', { amount: 1500 }]]);
  });

  it('refuses an amount out of bounds or not an amount, beside the field, and sends nothing', async () => {
    await renderPage();
    const field = screen.getByLabelText('Autre montant, en euros');
    await userEvent.type(field, '0,50');
    await userEvent.click(screen.getByRole('button', { name: 'Donner' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Le montant doit être compris entre 1 € et 1\u202f000 €.',
    );
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    await userEvent.clear(field);
    await userEvent.type(field, 'douze');
    await userEvent.click(screen.getByRole('button', { name: 'Donner' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Le montant s’écrit en euros');
    expect(writes()).toEqual([]);
  });

  it('says the site’s refusal in its words (too many attempts), and stays on the page', async () => {
    don = { status: 429, body: { error: 'rate_limited', message: 'Trop de tentatives : réessayez dans une minute.' } };
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Donner 20 €' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de tentatives : réessayez dans une minute.');
    expect(screen.getByRole('button', { name: 'Donner 20 €' })).toBeEnabled();
  });

  it.each(['javascript:alert(1)', 'http://helloasso.example/checkout/1', '//evil.example/checkout'])(
    'goes nowhere the site’s answer names that is not an https address or a path of the site (%s)',
    async (redirectUrl) => {
      don = { status: 200, body: { redirectUrl } };
      await renderPage();
      await userEvent.click(screen.getByRole('button', { name: 'Donner 20 €' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Le site a répondu sans page de paiement');
      expect(screen.queryByRole('link', { name: 'Ouvrir la page de HelloAsso' })).not.toBeInTheDocument();
      expect(navigations).toBe(0);
    },
  );

  it('asks the site for a tier’s membership form', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('link', { name: 'Adhérer : Adhésion solidaire, 5 €' }));
    expect(await screen.findByRole('link', { name: 'Ouvrir la page de HelloAsso' })).toHaveAttribute('href', FORM);
    expect(writes()).toEqual([['/api/support/adhesion', { tier: 11 }]]);
    expect(navigations).toBe(1);
  });

  it('names a residence in the gift (« Soutenir Axonberg »)', async () => {
    await renderPage('/soutenir?residence=axonberg');
    expect(await screen.findByRole('heading', { level: 2, name: 'Soutenir Axonberg' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Donner 20 € pour Axonberg' }));
    await screen.findByRole('link', { name: 'Ouvrir la page de HelloAsso' });
    expect(writes()).toEqual([['/api/support/don', { amount: 2000, residence: 'axonberg' }]]);
  });

  it('gives to the collective when the residence named does not exist, or cannot be a residence', async () => {
    await renderPage('/soutenir?residence=personne');
    expect(
      await screen.findByText('Aucune résidence ne porte ce nom : votre don ira au collectif.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Donner 20 €' }));
    await screen.findByRole('link', { name: 'Ouvrir la page de HelloAsso' });
    expect(writes()).toEqual([['/api/support/don', { amount: 2000 }]]);
    const asked = api.requests.filter((request) => request.path === '/api/content/residences').length;
    expect(asked).toBe(1);
  });

  it('does not ask the site about a residence that cannot be one', async () => {
    await renderPage(`/soutenir?residence=${encodeURIComponent('<script>x</script>')}`);
    expect(screen.getByRole('heading', { level: 2, name: 'Faire un don' })).toBeInTheDocument();
    expect(api.requests.some((request) => request.path === '/api/content/residences')).toBe(false);
  });

  it('shows the last figure with when it was read while HelloAsso is down, and keeps the external link', async () => {
    support = {
      status: 200,
      body: { ...answer, membership: null, progress: { ...answer.progress, goal: undefined, stale: true } },
    };
    await renderPage();
    expect(screen.getByText('142 adhérents en 2026')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText(/Chiffre lu le 26 novembre 2026 à 14:05 : HelloAsso ne répond pas/)).toBeInTheDocument();
    expect(screen.getByText(/Les formules d’adhésion ne peuvent pas être lues/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Adhérer sur notre page de soutien (nouvel onglet)' })).toHaveAttribute(
      'href',
      EXTERNAL,
    );
  });

  it('says the figures are unavailable when there is none', async () => {
    support = { status: 200, body: { ...answer, progress: null } };
    await renderPage();
    expect(screen.getByText('Le nombre d’adhérents de l’année est indisponible pour le moment.')).toBeInTheDocument();
  });

  it('leads to the external page alone when an admin turned HelloAsso off', async () => {
    support = { status: 200, body: { ...answer, helloasso: false } };
    await renderPage();
    expect(screen.getByRole('link', { name: 'Nous soutenir sur notre page externe (nouvel onglet)' })).toHaveAttribute(
      'href',
      EXTERNAL,
    );
    expect(screen.queryByRole('button', { name: /Donner/ })).not.toBeInTheDocument();
  });

  it('says in French when the site answers garbage, keeps the external link, and tries again', async () => {
    support = { status: 200, body: { helloasso: 'oui', donation: 'beaucoup' } };
    renderWithProviders(
      <SiteEnvironmentContext value={{ radio: radioSettings(), pages: sitePages() }}>
        <SupportPage />
      </SiteEnvironmentContext>,
      { route: '/soutenir' },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Les adhésions et les dons ne peuvent pas être affichés',
    );
    expect(
      screen.getByRole('link', { name: 'Nous soutenir sur notre page externe (nouvel onglet)' }),
    ).toBeInTheDocument();
    support = { status: 200, body: answer };
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('142 adhérents en 2026')).toBeInTheDocument();
  });
});
