import { declaredHref } from '@collectif/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { api as apiSlice, makeStore, radioSettings } from '@collectif/shared';
import { missingProperties } from '@collectif/shared/seo';
import { scheduleEvent, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { weekArgs } from '../schedule/week';
import { page as programme } from './ProgrammePage';
import ProgrammePage from './ProgrammePage';

const show = scheduleEvent;

// The week of Monday 23 November 2026; « now » is Wednesday 25 at 20:30 in Paris.
const NOW = Date.parse('2026-11-25T19:30:00.000Z');
const SHOWS = [
  show('m/1', 'Matinale', '2026-11-23T08:00:00.000Z', '2026-11-23T09:00:00.000Z'),
  show('v/1', 'Velours Club', '2026-11-25T19:00:00.000Z', '2026-11-25T21:00:00.000Z', 'velours-club'),
  show('a/1', 'Axonberg · Synapses', '2026-11-25T21:00:00.000Z', '2026-11-25T23:00:00.000Z', 'axonberg'),
  show('n/1', 'Nuit du dimanche', '2026-11-29T22:30:00.000Z', '2026-11-30T00:00:00.000Z'),
];

let api: FakeApi;
let clock: jest.SpyInstance<number, []>;

beforeEach(async () => {
  api = await startFakeApi({
    '/schedule': (url) => {
      const from = Date.parse(url.searchParams.get('from') ?? '');
      const to = Date.parse(url.searchParams.get('to') ?? '');
      const events = SHOWS.filter((event) => Date.parse(event.start) < to && Date.parse(event.end) > from);
      return {
        body: { zone: 'Europe/Paris', from: url.searchParams.get('from'), to: url.searchParams.get('to'), events },
      };
    },
  });
  clock = jest.spyOn(Date, 'now').mockReturnValue(NOW);
});

afterEach(async () => {
  clock.mockRestore();
  await api.close();
});

describe('ProgrammePage', () => {
  it('shows this week day by day, Monday to Sunday, in Paris time, with the show on air and today marked', async () => {
    renderWithProviders(<ProgrammePage />, { route: '/programme' });
    expect(screen.getByRole('heading', { level: 1, name: 'Programme' })).toBeInTheDocument();
    expect(screen.getByText(/Semaine du lundi 23 au dimanche 29 novembre · heures de Paris/)).toBeInTheDocument();
    const onAir = await screen.findByText('En ce moment');
    expect(onAir.closest('li')).toHaveTextContent('20:00 – 22:00 (19:00–21:00 chez vous)Velours Club');
    expect(api.requests).toEqual(['/schedule?from=2026-11-22T23%3A00%3A00.000Z&to=2026-11-29T23%3A00%3A00.000Z']);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual([
      'lundi 23 novembre',
      'mardi 24 novembre',
      'mercredi 25 novembre · aujourd’hui',
      'jeudi 26 novembre',
      'vendredi 27 novembre',
      'samedi 28 novembre',
      'dimanche 29 novembre',
    ]);
    const today = screen.getByRole('heading', { name: 'mercredi 25 novembre · aujourd’hui' }).closest('li')!;
    expect(today).toHaveAttribute('aria-current', 'date');
    expect(within(today).getByRole('link', { name: 'Axonberg · Synapses' })).toHaveAttribute(
      'href',
      '/residences/axonberg',
    );
    // A show at 23:30 in Paris on Sunday is Sunday's, though it is Sunday 22:30 in UTC.
    const sunday = screen.getByRole('heading', { name: 'dimanche 29 novembre' }).closest('li')!;
    expect(sunday).toHaveTextContent('23:30');
    const tuesday = screen.getByRole('heading', { name: 'mardi 24 novembre' }).closest('li')!;
    expect(tuesday).toHaveTextContent('Programmation continue');
    // The week before and the next ones are in the address.
    expect(screen.getByRole('link', { name: 'Semaine précédente' })).toHaveAttribute(
      'href',
      '/programme?semaine=2026-11-16',
    );
    expect(screen.getByRole('link', { name: 'Semaine suivante' })).toHaveAttribute(
      'href',
      '/programme?semaine=2026-11-30',
    );
    expect(screen.getByRole('link', { name: 'S’abonner au programme' }).getAttribute('href')).toMatch(
      /\/api\/schedule\.ics$/,
    );
  });

  it('opens the week an address names, on its Monday, and offers no week past the ones the server knows', async () => {
    renderWithProviders(<ProgrammePage />, { route: '/programme?semaine=2026-12-23' });
    expect(screen.getByText(/Semaine du lundi 21 au dimanche 27 décembre/)).toBeInTheDocument();
    await waitFor(() => {
      expect(api.requests).toEqual(['/schedule?from=2026-12-20T23%3A00%3A00.000Z&to=2026-12-27T23%3A00%3A00.000Z']);
    });
    expect(screen.queryByRole('link', { name: 'Semaine suivante' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cette semaine' })).toHaveAttribute('href', '/programme');
  });

  it('says so for a week that is not a date or not known, and asks nothing', () => {
    for (const route of [
      '/programme?semaine=demain',
      '/programme?semaine=2027-03-01',
      '/programme?semaine=2026-11-09',
    ]) {
      const { unmount } = renderWithProviders(<ProgrammePage />, { route });
      expect(screen.getByText(/Le programme de cette semaine n’est pas connu/)).toBeInTheDocument();
      unmount();
    }
    expect(api.requests).toEqual([]);
  });
});

describe('the programme page’s head', () => {
  const ORIGIN = 'https://radio.example.org';
  const context = (query: string) => ({
    params: {},
    origin: ORIGIN,
    query: new URLSearchParams(query),
    radio: radioSettings(),
    href: declaredHref,
  });

  it('describes each show of the week as a BroadcastEvent, at its Paris time with its offset', async () => {
    const store = makeStore();
    await Promise.all(programme.load!({ ...context(''), dispatch: store.dispatch }));
    expect(apiSlice.endpoints.schedule.select(weekArgs('2026-11-23'))(store.getState()).data?.events).toHaveLength(4);
    const head = programme.head!({ ...context(''), state: store.getState() });
    expect(head.canonicalPath).toBe('/programme');
    expect(head.title).toBeUndefined();
    const [first, second] = head.jsonLd!;
    expect(first).toMatchObject({
      '@type': 'BroadcastEvent',
      name: 'Matinale',
      startDate: '2026-11-23T09:00:00+01:00',
      endDate: '2026-11-23T10:00:00+01:00',
      url: `${ORIGIN}/programme`,
      publishedOn: { '@type': 'BroadcastService', url: `${ORIGIN}/` },
    });
    expect(second).toMatchObject({ name: 'Velours Club', url: `${ORIGIN}/residences/velours-club` });
    expect(missingProperties(head.jsonLd)).toEqual([]);
  });

  it('names another week in its title and address, and answers 404 for a week it does not know', () => {
    const state = makeStore().getState();
    const later = programme.head!({ ...context('semaine=2026-12-02'), state });
    expect(later.title).toBe('Programme de la semaine du lundi 30 novembre au dimanche 6 décembre');
    expect(later.canonicalPath).toBe('/programme?semaine=2026-11-30');
    expect(programme.head!({ ...context('semaine=1er-mai'), state }).status).toBe(404);
    expect(programme.head!({ ...context('semaine=2027-06-07'), state }).status).toBe(404);
  });
});
