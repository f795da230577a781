import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase, radioSettings, siteConfig, SiteEnvironmentContext, sitePages } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import about from '../../content/about.json';
import team from '../../content/team.json';
import AboutPage from './AboutPage';

let windowScrollTo: jest.SpiedFunction<typeof window.scrollTo>;
let api: FakeServer;
/** The events the fake /api answers: the demo's (the site's figure stays) unless a test says otherwise. */
let events = { source: 'demo', thisYear: 4 };
/** The About texts the fake /api answers (GET /api/content/about): the shipped ones unless a test says otherwise. */
let texts: { status: number; body: unknown } = { status: 200, body: about };

beforeEach(async () => {
  // jsdom does not scroll; the page's smooth scroll to top is observed here.
  windowScrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  events = { source: 'demo', thisYear: 4 };
  texts = { status: 200, body: about };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      // The page's texts and team are the site's content (docs/content.md), as shipped.
      '/api/content/about': (request, response) => json(texts.body, texts.status)(request, response),
      '/api/content/team': json(team),
      '/api/events': (request, response) =>
        json({ zone: 'Europe/Paris', now: '2026-11-25T19:30:00.000Z', stale: false, ...events, coming: [], past: [] })(
          request,
          response,
        ),
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

/** The page once its texts arrived. */
async function renderPage() {
  const rendered = renderWithProviders(<AboutPage />, { route: '/a-propos' });
  await screen.findByRole('heading', { level: 2, name: 'Le collectif' });
  return rendered;
}

const sectionNamed = (name: string) => screen.getByRole('region', { name });

describe('AboutPage', () => {
  it('shows the sections in the order of the spec', async () => {
    await renderPage();

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('À propos');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Le collectif',
      'Nos valeurs',
      'Pourquoi « Garonne » ?',
      'Repères',
      'Webradio',
      'Label',
      'Évènements',
      'Autofinancement',
      'Le studio',
      "L'équipe",
      'Contact',
      'Nous soutenir',
      'Crédits',
      // What the site counts of its audience, and « Ne pas être compté » (docs/figures.md).
      'Confidentialité et mesure d’audience',
    ]);
    expect(screen.getByText(/^Une radio qui ne dort jamais/)).toBeInTheDocument();
  });

  it('shows the creation, the city and every statistic from the site configuration', async () => {
    await renderPage();

    const indicators = sectionNamed('Repères');
    expect(within(indicators).getByText('2017')).toBeInTheDocument();
    expect(within(indicators).getByText('Toulouse, France')).toBeInTheDocument();

    const figures = (list: string) =>
      within(screen.getByRole('list', { name: list }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(figures('La radio en chiffres')).toEqual(['83 résidences', '181k écoutes', '185 directs au studio']);
    expect(figures('Le label en chiffres')).toEqual(['37 sorties', '58 artistes']);
    expect(figures('Les évènements en chiffres')).toEqual(['30 productions', '7 cette année']);
  });

  it('counts this year’s events from the collective’s calendar when one is configured, and links to them', async () => {
    events = { source: 'calendar', thisYear: 12 };
    await renderPage();
    const list = screen.getByRole('list', { name: 'Les évènements en chiffres' });
    expect(await within(list).findByText('12')).toBeInTheDocument();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['30 productions', '12 cette année']);
    expect(within(sectionNamed('Évènements')).getByRole('link', { name: 'Voir les évènements' })).toHaveAttribute(
      'href',
      '/evenements',
    );
  });

  it('says what the radio, the label and the funding are about', async () => {
    await renderPage();

    const radio = sectionNamed('Webradio');
    expect(radio).toHaveTextContent('24h/24 7j/7');
    expect(radio).toHaveTextContent(/émissions résidentes.*émissions ponctuelles/);
    expect(within(radio).getByRole('link', { name: /SoundCloud/ })).toHaveAttribute(
      'href',
      siteConfig.links.soundcloud,
    );

    const styles = within(sectionNamed('Label')).getByRole('list', { name: 'Les styles du label' });
    expect(
      within(styles)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['bass music', 'sound system', 'dub', 'breakbeat', 'UK funky', 'dubstep', 'grime', 'jungle']);

    const sources = within(sectionNamed('Autofinancement')).getAllByRole('listitem');
    expect(sources.map((li) => li.textContent).join(' | ')).toMatch(/merchandising.*label.*adhésions.*évènements/);
  });

  it('shows the studio map only once asked (« Afficher le plan »), with a link to the map site beside it', async () => {
    await renderPage();

    const studio = sectionNamed('Le studio');
    const address = siteConfig.studio.address;
    expect(within(studio).getByText(address)).toBeInTheDocument();
    // Nothing is requested from the map provider before the visitor asks.
    expect(within(studio).queryByTitle(`Plan d'accès au studio : ${address}`)).not.toBeInTheDocument();
    expect(within(studio).getByRole('group', { name: "Plan d'accès au studio" })).toHaveTextContent(
      'Fourni par Google Maps',
    );
    const open = within(studio).getByRole('link', { name: /Ouvrir le plan/ });
    expect(open).toHaveAttribute('target', '_blank');
    expect(open.getAttribute('href')).toContain(encodeURIComponent(address));

    await userEvent.click(within(studio).getByRole('button', { name: 'Afficher le plan' }));
    const frame = within(studio).getByTitle(`Plan d'accès au studio : ${address}`);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', `https://www.google.com/maps?q=${encodeURIComponent(address)}&output=embed`);
    expect(within(studio).getByRole('link', { name: /Ouvrir le plan/ })).toHaveAttribute(
      'href',
      open.getAttribute('href'),
    );
  });

  it('presents every team member in a strip that keyboard users can focus', async () => {
    await renderPage();

    const strip = screen.getByRole('region', { name: /Membres de l'équipe/ });
    expect(strip).toHaveAttribute('tabindex', '0');
    const members = within(strip).getAllByRole('listitem');
    // The team is the volunteers' content (ten people today): the strip shows each entry in order.
    expect(members).toHaveLength(team.length);
    expect(within(members[0]!).getByRole('heading', { level: 3 })).toHaveTextContent(team[0]!.title);
    expect(members[0]).toHaveTextContent(team[0]!.description);
    for (const member of members) {
      const photo = member.querySelector('img');
      expect(photo?.getAttribute('src')).toMatch(/^\/assets\/images\/team\/[a-z0-9-]+\.webp$/);
      expect(photo).toHaveAttribute('width', '480');
      expect(photo).toHaveAttribute('height', '600');
      expect(photo).toHaveAttribute('loading', 'lazy');
    }
    expect(screen.getByRole('button', { name: 'Membres suivants' })).toHaveAttribute('aria-controls', strip.id);
    expect(screen.getByRole('button', { name: 'Membres précédents' })).toHaveAttribute('aria-controls', strip.id);
  });

  it('lists the three contact addresses as labelled mailto links, the demos’ with the site’s form beside it', async () => {
    await renderPage();

    const contact = sectionNamed('Contact');
    expect(
      within(contact)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      [siteConfig.emails.contact, `mailto:${siteConfig.emails.contact}`],
      [siteConfig.emails.shows, `mailto:${siteConfig.emails.shows}`],
      [siteConfig.emails.labelDemos, `mailto:${siteConfig.emails.labelDemos}`],
      ['Envoyer une démo', '/label/envoyer-une-demo'],
    ]);
    expect(within(contact).getByRole('link', { name: `Contact : ${siteConfig.emails.contact}` })).toBeInTheDocument();
    expect(
      within(contact).getByRole('link', { name: `Propositions d'émissions : ${siteConfig.emails.shows}` }),
    ).toBeInTheDocument();
    expect(
      within(contact).getByRole('link', { name: `Démos label : ${siteConfig.emails.labelDemos}` }),
    ).toBeInTheDocument();
  });

  it('offers the demos’ address alone where the label declares no demo page', async () => {
    renderWithProviders(
      <SiteEnvironmentContext
        value={{ radio: radioSettings(), pages: sitePages().filter((page) => page.module !== 'SendDemoPage') }}
      >
        <AboutPage />
      </SiteEnvironmentContext>,
      { route: '/a-propos' },
    );
    const contact = await screen.findByRole('region', { name: 'Contact' });
    expect(within(contact).getByRole('link', { name: `Démos label : ${siteConfig.emails.labelDemos}` })).toBeVisible();
    expect(within(contact).queryByRole('link', { name: 'Envoyer une démo' })).not.toBeInTheDocument();
  });

  it('opens the donation page in a new tab and credits the work as text', async () => {
    await renderPage();

    const donate = within(sectionNamed('Nous soutenir')).getByRole('link', { name: /Faire un don/ });
    expect(donate).toHaveAttribute('href', siteConfig.links.donation);
    expect(donate).toHaveAttribute('target', '_blank');
    expect(donate).toHaveAttribute('rel', expect.stringContaining('noopener') as string);

    const credits = sectionNamed('Crédits');
    expect(within(credits).getByText('Mastering')).toBeInTheDocument();
    expect(within(credits).getByText('Visuels')).toBeInTheDocument();
    expect(within(credits).getByText('Photo')).toBeInTheDocument();
    expect(within(credits).queryByRole('link')).not.toBeInTheDocument();
  });

  it('leads its support block to /soutenir while HelloAsso takes payments on the site', async () => {
    const support = { page: '/soutenir', external: siteConfig.links.donation };
    renderWithProviders(
      <SiteEnvironmentContext value={{ radio: { ...radioSettings(), support }, pages: sitePages() }}>
        <AboutPage />
      </SiteEnvironmentContext>,
      { route: '/a-propos' },
    );
    const section = await screen.findByRole('region', { name: 'Nous soutenir' });
    const donate = within(section).getByRole('link', { name: 'Faire un don' });
    expect(donate).toHaveAttribute('href', '/soutenir');
    expect(donate).not.toHaveAttribute('target');
  });

  it('gives every image its size and loads only the first one at once', async () => {
    const { container } = await renderPage();

    const images = [...container.querySelectorAll('img')];
    for (const image of images) {
      expect(image.getAttribute('width')).toMatch(/^\d+$/);
      expect(image.getAttribute('height')).toMatch(/^\d+$/);
    }
    expect(images.filter((image) => image.getAttribute('loading') === 'eager')).toEqual([images[0]]);
    expect(screen.getByRole('img', { name: /Le collectif réuni/ })).toBe(images[0]);
  });

  it('scrolls smoothly to the top on entry', async () => {
    await renderPage();
    expect(windowScrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0, behavior: 'smooth' }));
  });

  it('shows the texts the About team saved last, with no rebuild', async () => {
    texts = { status: 200, body: { ...about, collective: { ...about.collective, heading: 'Qui nous sommes' } } };
    renderWithProviders(<AboutPage />, { route: '/a-propos' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Qui nous sommes' })).toBeInTheDocument();
  });

  it('says in French when its texts cannot be had, and tries again on request', async () => {
    texts = { status: 503, body: { error: 'unavailable', message: 'Indisponible.' } };
    renderWithProviders(<AboutPage />, { route: '/a-propos' });
    expect(
      await screen.findByText(
        'La présentation du collectif ne peut pas être affichée pour le moment. Réessayez dans un instant.',
      ),
    ).toBeInTheDocument();
    texts = { status: 200, body: about };
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Le collectif' })).toBeInTheDocument();
  });
});
