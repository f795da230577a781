import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { makeStore } from '@collectif/shared';
import { FOLLOW_KEY, follow, followedIds, setFollowedIds } from '@collectif/shared/follow';
import { podcast, scheduleEvent, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { FollowButton } from '../follow/FollowButton';
import { FollowChip } from '../follow/FollowChip';
import FollowedPage from './FollowedPage';

// « Suivre » and « Mes résidences » (docs/follow.md), through the fake /api: the shipped residences,
// a schedule and the feed.

let api: FakeApi;
let clock: jest.SpyInstance<number, []>;

beforeEach(async () => {
  window.localStorage.clear();
  clock = jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-22T10:00:00.000Z'));
  api = await startFakeApi({
    '/schedule': (url) => ({
      body: {
        zone: 'Europe/Paris',
        from: url.searchParams.get('from'),
        to: url.searchParams.get('to'),
        events: [
          scheduleEvent(
            'a/1',
            'Axonberg · Synapses',
            '2026-11-25T19:00:00.000Z',
            '2026-11-25T21:00:00.000Z',
            'axonberg',
          ),
          scheduleEvent('b/1', 'La Brume · Nappes', '2026-11-22T09:30:00.000Z', '2026-11-22T11:00:00.000Z', 'la-brume'),
        ],
      },
    }),
    '/podcasts': (url) => ({
      body:
        url.searchParams.get('q') === 'Axonberg'
          ? [{ ...podcast(1, 'Axonberg', 'Synapses #11'), slug: 'axonberg-synapses-11' }]
          : [],
    }),
  });
});

afterEach(async () => {
  clock.mockRestore();
  await api.close();
});

describe('« Suivre »', () => {
  it('is written unpressed by the server, pressed once the page knows this browser follows it', () => {
    follow('axonberg');
    const html = renderToString(
      <Provider store={makeStore()}>
        <MemoryRouter>
          <FollowButton id="axonberg" artist="Axonberg" />
          <FollowChip id="axonberg" artist="Axonberg" />
        </MemoryRouter>
      </Provider>,
    );
    // The same HTML for every visitor: unpressed, and no card button at all.
    expect(html).toContain('aria-pressed="false"');
    expect(html).not.toContain('Suivre Axonberg');

    renderWithProviders(
      <>
        <FollowButton id="axonberg" artist="Axonberg" />
        <FollowChip id="axonberg" artist="Axonberg" />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Suivre', pressed: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Suivre Axonberg', pressed: true })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mes résidences' })).toHaveAttribute('href', '/mes-residences');
  });

  it('follows, then stops following, on the page and on the card alike', () => {
    renderWithProviders(
      <>
        <FollowButton id="la-brume" artist="La Brume" />
        <FollowChip id="la-brume" artist="La Brume" />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Suivre', pressed: false }));
    expect(followedIds()).toEqual(['la-brume']);
    expect(screen.getByRole('button', { name: 'Suivre La Brume', pressed: true })).toBeInTheDocument();
    expect(screen.getByText(/^Dans/)).toHaveTextContent('Dans Mes résidences');
    fireEvent.click(screen.getByRole('button', { name: 'Suivre La Brume', pressed: true }));
    expect(followedIds()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Suivre', pressed: false })).toBeInTheDocument();
  });

  it('says when the list is full, and follows nothing more', () => {
    setFollowedIds(Array.from({ length: 50 }, (_, index) => `r${String(index)}`));
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    fireEvent.click(screen.getByRole('button', { name: 'Suivre' }));
    expect(screen.getByText(/^Vous suivez déjà 50 résidences, le maximum/)).toHaveAttribute('role', 'status');
    expect(followedIds()).not.toContain('axonberg');
  });
});

describe('« Mes résidences »', () => {
  it('says nothing is followed yet, and where to choose', async () => {
    renderWithProviders(<FollowedPage />, { route: '/mes-residences' });
    expect(await screen.findByText(/Vous ne suivez aucune résidence pour le moment/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir les résidences' })).toHaveAttribute('href', '/residences');
    expect(screen.queryByRole('heading', { name: 'Mon agenda' })).toBeNull();
  });

  it('lists the residences followed, newest first, with their next show and latest episode; « Ne plus suivre » takes one out', async () => {
    follow('axonberg');
    follow('la-brume');
    // One no longer in the collective: not shown.
    window.localStorage.setItem(FOLLOW_KEY, JSON.stringify(['axonberg', 'partie-depuis', 'la-brume']));
    renderWithProviders(<FollowedPage />, { route: '/mes-residences' });
    const list = await screen.findByRole('list', { name: 'Vos résidences' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(['La Brume', 'Axonberg']);
    await waitFor(() => {
      expect(items[1]).toHaveTextContent('Prochaine émission : mercredi 25 novembre à 20:00');
    });
    expect(items[0]).toHaveTextContent('En ce moment à l’antenne jusqu’à 12:00');
    await waitFor(() => {
      expect(items[1]).toHaveTextContent('Dernière émission : Synapses #11 · 29 janv. 2024');
    });
    expect(within(items[1] as HTMLElement).getByRole('link', { name: 'Synapses #11' })).toHaveAttribute(
      'href',
      '/emissions/axonberg-synapses-11',
    );
    await waitFor(() => {
      expect(items[0]).toHaveTextContent('Pas encore d’émission dans le flux.');
    });
    // One schedule for all of them, not one per residence.
    expect(api.requests.filter((request) => request.startsWith('/schedule'))).toHaveLength(1);

    // The calendar: the ids, and nothing else, in its address.
    const agenda = screen.getByRole('region', { name: 'Mon agenda' });
    expect(within(agenda).getByRole('link', { name: 'S’abonner dans mon agenda' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^webcal:\/\/[^/]+\/api\/schedule\/suivi\.ics\?residences=la-brume%2Caxonberg$/),
    );
    expect(within(agenda).getByRole('link', { name: 'Fichier .ics' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https?:\/\/[^/]+\/api\/schedule\/suivi\.ics\?residences=la-brume%2Caxonberg$/),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Ne plus suivre Axonberg' }));
    expect(await screen.findByText('Axonberg n’est plus suivie.')).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(followedIds()).toEqual(['partie-depuis', 'la-brume']);
    expect(screen.getByRole('heading', { name: 'Vos résidences' })).toHaveFocus();
  });

  it('offers what a shared link names, never follows it before the click, and keeps its well-formed known ids only', async () => {
    follow('verglas');
    const hostile = ['axonberg', '<img src=x onerror=alert(1)>', 'verglas', 'inconnue', 'LA-BRUME', 'axonberg'];
    renderWithProviders(<FollowedPage />, { route: `/mes-residences?suivre=${encodeURIComponent(hostile.join(','))}` });
    const offer = await screen.findByRole('region', { name: 'Suivre ces résidences ?' });
    expect(
      within(offer)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Axonberg · Synapses', 'La Brume · Nappes du Matin']);
    expect(document.body.innerHTML).not.toContain('<img src=x');
    expect(followedIds()).toEqual(['verglas']);

    fireEvent.click(within(offer).getByRole('button', { name: 'Suivre ces 2 résidences' }));
    expect(followedIds()).toEqual(['verglas', 'axonberg', 'la-brume']);
    expect(await screen.findByText('2 résidences ajoutées.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Suivre ces résidences ?' })).toBeNull();
  });

  it('refuses a shared list that would pass 50, whole, and says so', async () => {
    setFollowedIds(Array.from({ length: 49 }, (_, index) => `r${String(index)}`));
    renderWithProviders(<FollowedPage />, { route: '/mes-residences?suivre=axonberg,la-brume' });
    const offer = await screen.findByRole('region', { name: 'Suivre ces résidences ?' });
    fireEvent.click(within(offer).getByRole('button', { name: 'Suivre ces 2 résidences' }));
    expect(await screen.findByText(/^Ces résidences dépasseraient 50 résidences suivies/)).toBeInTheDocument();
    expect(followedIds()).toHaveLength(49);
  });

  it('lets a shared link go with « Non merci », and says when it offers nothing new', async () => {
    renderWithProviders(<FollowedPage />, { route: '/mes-residences?suivre=axonberg' });
    const offer = await screen.findByRole('region', { name: 'Suivre ces résidences ?' });
    fireEvent.click(within(offer).getByRole('button', { name: 'Non merci' }));
    expect(screen.queryByRole('region', { name: 'Suivre ces résidences ?' })).toBeNull();
    expect(followedIds()).toEqual([]);

    const again = renderWithProviders(<FollowedPage />, { route: '/mes-residences?suivre=partie-1,partie-2' });
    expect(await within(again.container).findByText(/Ce lien ne propose aucune résidence/)).toBeInTheDocument();
  });

  it('copies the list as a link for another device', async () => {
    const writeText = jest.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    follow('axonberg');
    follow('la-brume');
    renderWithProviders(<FollowedPage />, { route: '/mes-residences' });
    fireEvent.click(await screen.findByRole('button', { name: 'Copier mon lien' }));
    expect(await screen.findByText('Lien copié : ouvrez-le sur votre autre appareil.')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/mes-residences?suivre=la-brume%2Caxonberg`);
  });

  it('says what the site does on air, and where « Me prévenir » is, asking no permission itself', async () => {
    const requestPermission = jest.fn(() => Promise.resolve<NotificationPermission>('granted'));
    const fake = { permission: 'denied', requestPermission };
    Object.defineProperty(window, 'Notification', { value: fake, configurable: true });
    Object.defineProperty(window, 'PushManager', { value: function PushManager() {}, configurable: true });
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    try {
      follow('axonberg');
      renderWithProviders(<FollowedPage />, { route: '/mes-residences' });
      const section = await screen.findByRole('region', { name: 'Quand elles passent en direct' });
      expect(within(section).getByText(/^Avec « Me prévenir » sur une résidence/)).toBeInTheDocument();
      // One « Me prévenir » per residence, in the list; none in this section.
      expect(within(section).queryByRole('button')).toBeNull();
      expect(await screen.findByRole('button', { name: 'Me prévenir : Axonberg' })).toBeInTheDocument();
      expect(
        within(section).getByText(
          'Les notifications de ce site sont bloquées dans votre navigateur : autorisez-les dans ses réglages pour ce site, puis appuyez de nouveau sur « Me prévenir ».',
        ),
      ).toBeInTheDocument();
      expect(requestPermission).not.toHaveBeenCalled();
    } finally {
      for (const name of ['PushManager', 'Notification']) Reflect.deleteProperty(window, name);
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });
});
