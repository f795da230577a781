import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { Figures, readSupportFigures } from './Figures';

// « Mes chiffres » against a fake /api on loopback (docs/content.md, « The editor »).

let api: FakeServer;
let figures: { status: number; body: unknown };

const residence = { id: 'axonberg', artist: 'Axonberg', show: 'Synapses', description: 'Techno.', styles: [] };

beforeEach(async () => {
  figures = {
    status: 200,
    body: { year: 2026, members: 142, goal: 200, residences: [{ id: 'axonberg', donations: 3 }] },
  };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/editor/figures/support': (request, response) => json(figures.body, figures.status)(request, response),
      '/api/content/residences': json([residence, { ...residence, id: 'autre', artist: 'Autre' }]),
      // The audience's part of the same panel (AudienceFigures.test.tsx): nothing counted yet.
      '/api/editor/figures/audience': json({
        residence: 'axonberg',
        at: '2026-11-26T20:00:00.000Z',
        slots: [],
        episodes: [],
        moments: [],
        trend: [],
      }),
      '/api/content/figures/history': json({ current: 'v1' }),
      '/api/content/figures/versions/v1': json({
        id: 'v1',
        savedAt: '2026-11-26T19:00:00.000Z',
        data: { showListeners: false },
      }),
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

describe('« Mes chiffres »', () => {
  it('holds the audience in the same panel, as one « Mes chiffres »', async () => {
    renderWithProviders(<Figures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    const panel = screen.getByRole('region', { name: 'Mes chiffres' });
    const audience = within(panel).getByRole('region', { name: 'Audience' });
    expect(
      await within(audience).findByText('Aucune réécoute comptée sur les 12 dernières semaines.'),
    ).toBeInTheDocument();
  });

  it('tells a resident how many gifts named their residence this year, and nothing of who or how much', async () => {
    renderWithProviders(<Figures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    const panel = screen.getByRole('region', { name: 'Mes chiffres' });
    expect(await within(panel).findByText(/3 dons au nom de votre résidence en 2026\./)).toBeInTheDocument();
    expect(within(panel).queryByText(/€/)).not.toBeInTheDocument();
  });

  it('says 0 when no gift named the residence yet', async () => {
    figures = { status: 200, body: { year: 2026, members: 142, residences: [] } };
    renderWithProviders(<Figures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    expect(await screen.findByText(/0 don au nom de votre résidence en 2026\./)).toBeInTheDocument();
  });

  it('shows an admin every residence with its gifts and sums, and the year’s members toward the goal', async () => {
    figures = {
      status: 200,
      body: {
        year: 2026,
        members: 142,
        goal: 200,
        residences: [
          { id: 'axonberg', donations: 3, sum: 6250 },
          { id: 'autre', donations: 1, sum: 1000 },
        ],
      },
    };
    renderWithProviders(<Figures me={{ name: 'camille', role: 'admin', residence: null }} />);
    expect(await screen.findByText('142 adhérents en 2026, objectif 200.')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Dons au nom des résidences en 2026' });
    // Each residence named by its artist once the residences have come.
    await within(table).findByRole('rowheader', { name: 'Autre' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual(['RésidenceDonsMontant', 'Axonberg362,50 €', 'Autre110 €']);
  });

  it('says in French when the site refuses, or answers garbage, and reads again on request', async () => {
    figures = {
      status: 403,
      body: { error: 'forbidden', message: 'Ces chiffres ne sont pas ceux de votre résidence.' },
    };
    renderWithProviders(<Figures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Ces chiffres ne sont pas ceux de votre résidence.');
    figures = { status: 200, body: { year: 'cette année', residences: 'beaucoup' } };
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Les chiffres reçus du site sont illisibles');
    figures = { status: 200, body: { year: 2026, members: 1, residences: [{ id: 'axonberg', donations: 1 }] } };
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText(/1 don au nom de votre résidence en 2026\./)).toBeInTheDocument();
  });
});

describe('the figures’ answer, read as input', () => {
  it('drops the rows it cannot show and keeps the rest', () => {
    expect(
      readSupportFigures({
        year: 2026,
        members: null,
        goal: -3,
        residences: [
          { id: 'axonberg', donations: 2, sum: 'beaucoup' },
          { id: '', donations: 1 },
          { id: 'x'.repeat(61), donations: 1 },
          { id: 'autre', donations: -1 },
          { id: 'dub', donations: 1.5 },
          null,
        ],
      }),
    ).toEqual({ year: 2026, members: null, residences: [{ id: 'axonberg', donations: 2 }] });
  });

  it('refuses an answer that is not the figures', () => {
    for (const data of [null, 'texte', { year: 2026, members: 'x', residences: [] }, { year: 2026, members: 1 }]) {
      expect(() => readSupportFigures(data)).toThrow('Les chiffres reçus du site sont illisibles');
    }
  });
});
