import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { declaredHref } from '@collectif/shared/testing';
import { makeStore, radioSettings } from '@collectif/shared';
import { eventItem, startFakeApi, type FakeApi } from '../testing/fakeApi';
import EventsPage, { page as events } from './EventsPage';

// « Now » is Wednesday 25 November 2026 at 20:30 in Paris.
const NOW = '2026-11-25T19:30:00.000Z';
const SATURDAY = eventItem(
  '2026-12-05-0123456789',
  'Nuit Bass Music',
  '2026-12-05T22:00:00.000Z',
  '2026-12-06T04:00:00.000Z',
  {
    lineup: [
      { name: 'Axonberg', residence: 'axonberg' },
      { name: 'Mona Vex', residence: 'kalibre-mona-vex' },
      { name: 'DJ Invitée', residence: null },
    ],
    tickets: 'https://billetterie.example.org/nuit-bass',
    image: '/assets/images/evenements/nuit-bass.webp',
  },
);
const CANCELLED = eventItem(
  '2026-12-12-abcdefabcd',
  'Sound system au Port',
  '2026-12-12T14:00:00.000Z',
  '2026-12-12T20:00:00.000Z',
  {
    status: 'cancelled',
    tickets: 'https://billetterie.example.org/port',
  },
);
const SUMMER = eventItem('2026-07-14-1111111111', 'Bal du 14', '2026-07-13T22:00:00.000Z', '2026-07-14T03:00:00.000Z', {
  tickets: 'https://billetterie.example.org/bal',
});
const LAST_YEAR = eventItem(
  '2025-06-21-2222222222',
  'Fête de la musique',
  '2025-06-20T22:00:00.000Z',
  '2025-06-21T22:00:00.000Z',
  {
    allDay: true,
    venue: null,
    address: null,
  },
);

let api: FakeApi;
let answer: Record<string, unknown>;

beforeEach(async () => {
  // jsdom has no scrolling; the page scrolls to its top when opened.
  window.scrollTo = jest.fn();
  answer = {
    zone: 'Europe/Paris',
    now: NOW,
    stale: false,
    source: 'demo',
    thisYear: 3,
    coming: [SATURDAY, CANCELLED],
    past: [SUMMER, LAST_YEAR],
  };
  api = await startFakeApi({ '/events': () => ({ body: answer }) });
});

afterEach(async () => {
  await api.close();
});

describe('EventsPage', () => {
  it('shows the coming events first, then the past ones by year, each card with its date in Paris, venue and line-up', async () => {
    renderWithProviders(<EventsPage />, { route: '/evenements' });
    expect(screen.getByRole('heading', { level: 1, name: 'Évènements' })).toBeInTheDocument();
    const coming = await screen.findByRole('region', { name: 'À venir' });
    const cards = within(coming).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('samedi 5 décembre 2026 · 23:00 – 05:00');
    expect(within(cards[0]!).getByRole('heading', { name: 'Nuit Bass Music' })).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('link', { name: 'Nuit Bass Music' })).toHaveAttribute(
      'href',
      '/evenements/2026-12-05-0123456789',
    );
    expect(cards[0]).toHaveTextContent('Le Metronum');
    expect(cards[0]).toHaveTextContent('Avec Axonberg, Mona Vex et DJ Invitée');
    expect(within(cards[0]!).getByRole('link', { name: 'Axonberg' })).toHaveAttribute('href', '/residences/axonberg');
    expect(within(cards[0]!).getByRole('link', { name: 'Mona Vex' })).toHaveAttribute(
      'href',
      '/residences/kalibre-mona-vex',
    );
    expect(within(cards[0]!).queryByRole('link', { name: 'DJ Invitée' })).not.toBeInTheDocument();
    const tickets = within(cards[0]!).getByRole('link', { name: /^Billets/ });
    expect(tickets).toHaveAttribute('href', 'https://billetterie.example.org/nuit-bass');
    expect(tickets).toHaveAttribute('target', '_blank');
    expect(tickets).toHaveAttribute('rel', 'noopener noreferrer');

    // A cancelled event says so in words, and sells no ticket.
    expect(cards[1]).toHaveTextContent('Annulé');
    expect(within(cards[1]!).queryByRole('link', { name: /^Billets/ })).not.toBeInTheDocument();

    const years = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(years).toEqual(['À venir', 'Plus tôt en 2026', '2025']);
    const summer = screen.getByRole('region', { name: 'Plus tôt en 2026' });
    // No ticket for what is over.
    expect(within(summer).queryByRole('link', { name: /^Billets/ })).not.toBeInTheDocument();
    const lastYear = screen.getByRole('region', { name: '2025' });
    expect(lastYear).toHaveTextContent('samedi 21 juin 2025 · Toute la journée');
    expect(screen.getByRole('link', { name: 'S’abonner aux évènements' }).getAttribute('href')).toMatch(
      /\/api\/events\.ics$/,
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says when the calendar could not be read again, and shows the last events read', async () => {
    answer = { ...answer, stale: true };
    renderWithProviders(<EventsPage />, { route: '/evenements' });
    expect(await screen.findByText(/L’agenda n’a pas pu être relu/)).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'Nuit Bass Music' })).toBeInTheDocument();
  });

  it('says there is nothing to come yet, and that the calendar is down when it is', async () => {
    answer = { ...answer, coming: [] };
    const { unmount } = renderWithProviders(<EventsPage />, { route: '/evenements' });
    expect(await screen.findByText(/Pas d’évènement annoncé pour le moment/)).toBeInTheDocument();
    unmount();
    await api.close();
    api = await startFakeApi({
      '/events': () => ({ status: 502, body: { error: 'upstream_unavailable', message: 'x' } }),
    });
    renderWithProviders(<EventsPage />, { route: '/evenements' });
    expect(await screen.findByText('L’agenda des évènements est momentanément indisponible.')).toBeInTheDocument();
  });

  it('shows a hostile title as text, and drops an event it cannot place', async () => {
    answer = {
      ...answer,
      coming: [
        { ...SATURDAY, title: '<img src=x onerror=alert(1)>' },
        { ...CANCELLED, start: 'demain' },
      ],
    };
    const { container } = renderWithProviders(<EventsPage />, { route: '/evenements' });
    expect(await screen.findByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(within(screen.getByRole('region', { name: 'À venir' })).getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('the events page’s head', () => {
  it('shares the next event’s poster (Open Graph), and preloads it', async () => {
    const store = makeStore();
    const context = {
      params: {},
      origin: 'https://radio.example.org',
      query: new URLSearchParams(),
      radio: radioSettings(),
      href: declaredHref,
    };
    await Promise.all(events.load!({ ...context, dispatch: store.dispatch }));
    const head = events.head!({ ...context, state: store.getState() });
    expect(head.image).toEqual({
      url: 'https://radio.example.org/assets/images/evenements/nuit-bass.webp',
      alt: 'Affiche : Nuit Bass Music',
      width: 1200,
      height: 800,
    });
    expect(events.preloads!({ ...context, state: store.getState() })[0]).toMatchObject({
      href: '/assets/images/evenements/nuit-bass.webp',
      fetchpriority: 'high',
    });
  });
});
