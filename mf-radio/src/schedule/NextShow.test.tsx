import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import type { ScheduleEvent } from '@collectif/shared';
import { scheduleEvent, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { NextShow } from './NextShow';

const show = (id: string, start: string, end: string) => scheduleEvent(id, 'Velours Club', start, end, 'velours-club');

let api: FakeApi;
let clock: jest.SpyInstance<number, []>;
let events: ScheduleEvent[];

beforeEach(async () => {
  events = [
    show('v/1', '2026-11-25T19:00:00.000Z', '2026-11-25T21:00:00.000Z'),
    show('v/2', '2026-12-02T19:00:00.000Z', '2026-12-02T21:00:00.000Z'),
  ];
  api = await startFakeApi({
    '/schedule': (url) => ({
      body: { zone: 'Europe/Paris', from: url.searchParams.get('from'), to: url.searchParams.get('to'), events },
    }),
  });
  clock = jest.spyOn(Date, 'now');
});

afterEach(async () => {
  clock.mockRestore();
  await api.close();
});

/** Waits for the residence's « Prochaine émission » block to say this. */
const shows = (text: string) =>
  waitFor(() => {
    expect(screen.getByRole('region', { name: 'Prochaine émission' })).toHaveTextContent(text);
  });

describe('NextShow', () => {
  it('says the date of the next show in Paris time, for this residence only, with « Ajouter à mon agenda »', async () => {
    clock.mockReturnValue(Date.parse('2026-11-24T10:00:00.000Z'));
    renderWithProviders(<NextShow residence="velours-club" />);
    // The tests run in UTC (docs/testing.md): the visitor's own time is beside Paris's.
    await shows('Prochaine émission : mercredi 25 novembre à 20:00 (19:00 chez vous)');
    expect(api.requests).toEqual([
      '/schedule?from=2026-11-23T23%3A00%3A00.000Z&to=2026-12-21T23%3A00%3A00.000Z&residence=velours-club',
    ]);
    const add = screen.getByRole('link', { name: /Ajouter à mon agenda/ });
    expect(add.getAttribute('href')).toMatch(/\/api\/schedule\/event\.ics\?id=v%2F1$/);
    expect(screen.getByRole('link', { name: 'S’abonner à ses émissions' }).getAttribute('href')).toMatch(
      /\/api\/schedule\.ics\?residence=velours-club$/,
    );
  });

  it('says the show is on air until its end, then names the next one', async () => {
    clock.mockReturnValue(Date.parse('2026-11-25T20:59:00.000Z'));
    const { unmount } = renderWithProviders(<NextShow residence="velours-club" />);
    await shows('En ce moment à l’antenne jusqu’à 22:00');
    unmount();
    clock.mockReturnValue(Date.parse('2026-11-25T21:00:00.000Z'));
    renderWithProviders(<NextShow residence="velours-club" />);
    await shows('Prochaine émission : mercredi 2 décembre à 20:00');
  });

  it('says when no show is announced, and when the schedule cannot be had', async () => {
    clock.mockReturnValue(Date.parse('2026-11-24T10:00:00.000Z'));
    events = [];
    const { unmount } = renderWithProviders(<NextShow residence="velours-club" />);
    expect(await screen.findByText('Pas d’émission annoncée pour le moment.')).toBeInTheDocument();
    unmount();
    api.set('/schedule', () => ({ status: 502, body: { error: 'upstream_invalid', message: 'Agenda illisible.' } }));
    renderWithProviders(<NextShow residence="velours-club" />);
    expect(await screen.findByText('Le programme est momentanément indisponible.')).toBeInTheDocument();
  });
});
