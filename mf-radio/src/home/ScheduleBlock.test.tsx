import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { siteConfig } from '@collectif/shared';
import { scheduleEvent, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { calendarEmbedUrl, ScheduleBlock } from './ScheduleBlock';

const render = (ui: Parameters<typeof renderWithProviders>[0]) => renderWithProviders(ui);

const show = scheduleEvent;

// Wednesday 25 November 2026, Paris time (UTC+1).
const SHOWS = [
  show('velours/1', 'Velours Club', '2026-11-25T19:00:00.000Z', '2026-11-25T21:00:00.000Z', 'velours-club'),
  show('axon/1', 'Axonberg · Synapses', '2026-11-25T21:00:00.000Z', '2026-11-25T23:00:00.000Z', 'axonberg'),
  show('guest/1', 'Invitée : Lina Dub', '2026-11-26T19:00:00.000Z', '2026-11-26T20:30:00.000Z'),
  show('late/1', 'Nuit Blanche', '2026-11-27T22:00:00.000Z', '2026-11-27T23:30:00.000Z'),
];

let api: FakeApi;
let clock: jest.SpyInstance<number, []>;

beforeEach(async () => {
  api = await startFakeApi({
    '/schedule': () => ({ body: { zone: 'Europe/Paris', from: SHOWS[0]!.start, to: SHOWS[3]!.end, events: SHOWS } }),
  });
  clock = jest.spyOn(Date, 'now');
});

afterEach(async () => {
  clock.mockRestore();
  await api.close();
});

/** The visitor's clock, fixed: an instant in UTC. */
const at = (instant: string) => clock.mockReturnValue(Date.parse(instant));

describe('ScheduleBlock, on air', () => {
  it('says what is on, from its first minute, and what comes next, in Paris time, each linked to its residence', async () => {
    at('2026-11-25T19:00:00.000Z');
    render(<ScheduleBlock />);
    const now = await screen.findByRole('heading', { name: 'En ce moment' });
    const onAir = now.parentElement!;
    // Paris times, and the visitor's own beside them: the tests run in UTC (docs/testing.md).
    expect(onAir).toHaveTextContent('20:00 – 22:00 (19:00–21:00 chez vous) Velours Club');
    expect(within(onAir).getByRole('link', { name: 'Velours Club' })).toHaveAttribute(
      'href',
      '/residences/velours-club',
    );
    // The three days from today, Paris days.
    expect(api.requests).toEqual(['/schedule?from=2026-11-24T23%3A00%3A00.000Z&to=2026-11-27T23%3A00%3A00.000Z']);
    const next = within(screen.getByRole('heading', { name: 'À suivre' }).parentElement!).getAllByRole('listitem');
    expect(next.map((item) => item.textContent)).toEqual([
      'Aujourd’hui 22:00 (21:00 chez vous) Axonberg · Synapses ',
      'Demain 20:00 (19:00 chez vous) Invitée : Lina Dub ',
      'vendredi 27 novembre 23:00 (22:00 chez vous) Nuit Blanche ',
    ]);
    const add = within(next[1]!).getByRole('link', { name: 'Ajouter « Invitée : Lina Dub » à mon agenda' });
    expect(add.getAttribute('href')).toMatch(/\/api\/schedule\/event\.ics\?id=guest%2F1$/);
    expect(screen.getByRole('link', { name: 'Tout le programme de la semaine' })).toHaveAttribute('href', '/programme');
  });

  it('moves on at a show’s end: its last minute is still it, the next minute is the next show', async () => {
    at('2026-11-25T20:59:59.999Z');
    const { unmount } = render(<ScheduleBlock />);
    expect((await screen.findByRole('heading', { name: 'En ce moment' })).parentElement).toHaveTextContent(
      'Velours Club',
    );
    unmount();
    at('2026-11-25T21:00:00.000Z');
    render(<ScheduleBlock />);
    expect((await screen.findByRole('heading', { name: 'En ce moment' })).parentElement).toHaveTextContent(
      'Axonberg · Synapses',
    );
  });

  it('says the radio plays its continuous programme when no show is on', async () => {
    at('2026-11-25T12:00:00.000Z');
    render(<ScheduleBlock />);
    expect(await screen.findByText('Pas d’émission : la radio joue sa programmation continue.')).toBeInTheDocument();
  });

  it('shows a French error with a retry when the schedule cannot be had', async () => {
    at('2026-11-25T12:00:00.000Z');
    api.set('/schedule', () => ({ status: 502, body: { error: 'upstream_invalid', message: 'Agenda illisible.' } }));
    render(<ScheduleBlock />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Le programme est momentanément indisponible.');
    api.set('/schedule', () => ({
      body: { zone: 'Europe/Paris', from: SHOWS[0]!.start, to: SHOWS[3]!.end, events: SHOWS },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('heading', { name: 'À suivre' })).toBeInTheDocument();
  });
});

describe('ScheduleBlock, the agenda', () => {
  it('asks before loading anything from the calendar provider, and offers the agenda as a link', () => {
    at('2026-11-25T12:00:00.000Z');
    render(<ScheduleBlock />);
    expect(screen.getByRole('heading', { name: 'Radio Schedule' })).toBeInTheDocument();
    const facade = screen.getByRole('group', { name: 'Programme de la radio' });
    expect(facade).toHaveTextContent('Fourni par Google Agenda');
    expect(screen.queryByTitle('Programme de la radio (agenda)')).not.toBeInTheDocument();
    const direct = screen.getByRole('link', { name: /Ouvrir l'agenda/ });
    expect(direct).toHaveAttribute('href', calendarEmbedUrl());
    expect(direct).toHaveAttribute('target', '_blank');
  });

  it('on « Afficher l’agenda », embeds both calendars, without controls, in Paris time, at 800×600', async () => {
    render(<ScheduleBlock />);
    await userEvent.click(screen.getByRole('button', { name: "Afficher l'agenda" }));
    const frame = screen.getByTitle('Programme de la radio (agenda)');
    expect(frame).toHaveAttribute('width', '800');
    expect(frame).toHaveAttribute('height', '600');
    const url = new URL(frame.getAttribute('src')!);
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/embed');
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'src'))).toEqual({
      mode: 'AGENDA',
      showTitle: '0',
      showNav: '0',
      showPrint: '0',
      showTabs: '0',
      showCalendars: '0',
      showTz: '0',
      ctz: 'Europe/Paris',
    });
    expect(url.searchParams.getAll('src')).toEqual(siteConfig.radio.calendarIds);
    // The placeholder is gone; the direct link stays under the frame.
    expect(screen.queryByRole('button', { name: "Afficher l'agenda" })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Ouvrir l'agenda/ })).toHaveAttribute('href', frame.getAttribute('src'));
  });

  it('takes one src per calendar id', () => {
    expect(new URL(calendarEmbedUrl(['a@example.org'])).searchParams.getAll('src')).toEqual(['a@example.org']);
  });
});
