import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApiBase, type AudienceFigures as Figures } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { AudienceFigures, readAudience } from './AudienceFigures';

// The audience part of « Mes chiffres » against a fake /api on loopback (docs/content.md, « Mes chiffres »).

let api: FakeServer;
let answer: { status: number; body: unknown };
let asked: string[];
let saved: unknown[];

const residence = { id: 'axonberg', artist: 'Axonberg', show: 'Synapses', description: 'Techno.', styles: [] };

const FIGURES: Figures = {
  residence: 'axonberg',
  at: '2026-11-26T20:00:00.000Z',
  slots: [
    {
      start: '2026-11-24T20:00:00.000Z',
      end: '2026-11-24T20:03:00.000Z',
      title: 'Synapses',
      residence: 'axonberg',
      peak: 12,
      average: 8,
      sources: { player: 7, icecast: 'few' },
      curve: ['few', 8, 12],
    },
  ],
  episodes: [
    {
      episode: 'axonberg-synapses-11',
      title: 'Axonberg — Synapses #11',
      plays: 23,
      embedPlays: 'few',
      reached: { p25: 20, p50: 14, p75: 9, p100: 'few' },
    },
  ],
  moments: [{ episode: 'axonberg-synapses-11', second: 754, plays: 6 }],
  trend: [
    { week: '2026-11-16', peak: 'few', plays: 5 },
    { week: '2026-11-23', peak: 12, plays: 23 },
  ],
};

beforeEach(async () => {
  answer = { status: 200, body: FIGURES };
  asked = [];
  saved = [];
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    onRequest: ({ url }) => asked.push(url),
    routes: {
      '/api/editor/figures/audience': (request, response) => json(answer.body, answer.status)(request, response),
      '/api/content/residences': json([residence, { ...residence, id: 'autre', artist: 'Autre', show: 'Ailleurs' }]),
      '/api/content/figures/history': json({ current: 'v1' }),
      '/api/content/figures/versions/v1': json({
        id: 'v1',
        savedAt: '2026-11-26T19:00:00.000Z',
        data: { showListeners: false },
      }),
      '/api/content/figures': (request, response) => {
        saved.push(JSON.parse(request.body));
        json({ version: { id: 'v2', savedAt: '2026-11-26T20:00:00.000Z' } })(request, response);
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => row.textContent);

describe('the audience in « Mes chiffres »', () => {
  it('shows a resident their slots, replays, moments and trend, « moins de 5 » as the server sent it', async () => {
    renderWithProviders(<AudienceFigures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    const part = screen.getByRole('region', { name: 'Audience' });
    const slots = await within(part).findByRole('table', { name: /Le direct, créneau par créneau/ });
    expect(within(slots).getByText(/sources : Icecast moins de 5, lecteur du site 7/)).toBeInTheDocument();
    expect(rows(slots)[1]).toContain('128');
    // The curve in words: a table minute by minute, in Paris time.
    expect(rows(within(part).getByRole('table', { name: /minute par minute/ }))).toEqual([
      'HeureAuditeurs',
      '21:00moins de 5',
      '21:018',
      '21:0212',
    ]);
    expect(rows(within(part).getByRole('table', { name: /Réécoutes des épisodes/ }))[1]).toBe(
      'Axonberg — Synapses #1123moins de 520149moins de 5',
    );
    expect(rows(within(part).getByRole('table', { name: /moments les plus lancés/ }))[1]).toBe(
      'Axonberg — Synapses #1112:346',
    );
    expect(rows(within(part).getByRole('table', { name: 'Les 12 dernières semaines' })).slice(1)).toEqual([
      '16 nov.moins de 55',
      '23 nov.1223',
    ]);
    // A resident asks for their own, and has no setting of the player.
    expect(asked).toContain('/api/editor/figures/audience?residence=axonberg');
    expect(within(part).queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('offers the month’s CSV, the month the server read the figures in first', async () => {
    renderWithProviders(<AudienceFigures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    const link = await screen.findByRole('link', { name: 'Télécharger le mois (CSV)' });
    expect(link).toHaveAttribute(
      'href',
      `${api.origin}/api/editor/figures/audience.csv?month=2026-11&residence=axonberg`,
    );
    expect(link).toHaveAttribute('download');
    await userEvent.clear(screen.getByLabelText('Mois à télécharger'));
    expect(screen.queryByRole('link', { name: 'Télécharger le mois (CSV)' })).not.toBeInTheDocument();
  });

  it('shows an admin the whole radio, any residence, and turns « N à l’écoute » on', async () => {
    answer = {
      status: 200,
      body: {
        ...FIGURES,
        residence: null,
        days: [{ day: '2026-11-24', peak: 12, average: 'few', sources: { azuracast: 12 } }],
        residences: [{ id: 'axonberg', peak: 12, plays: 23 }],
      },
    };
    renderWithProviders(<AudienceFigures me={{ name: 'camille', role: 'admin', residence: null }} />);
    const part = screen.getByRole('region', { name: 'Audience' });
    expect(rows(await within(part).findByRole('table', { name: /jour par jour/ }))[1]).toBe(
      '24 nov.12moins de 5AzuraCast 12',
    );
    // Named once the site's residences are read.
    await waitFor(() => {
      expect(rows(within(part).getByRole('table', { name: /Chaque résidence/ }))[1]).toBe('Axonberg · Synapses1223');
    });
    expect(asked).toContain('/api/editor/figures/audience');

    await userEvent.selectOptions(await within(part).findByLabelText('Audience de'), 'autre');
    await within(part).findByRole('table', { name: /Le direct, créneau par créneau/ });
    expect(asked).toContain('/api/editor/figures/audience?residence=autre');

    const toggle = await within(part).findByRole('checkbox', { name: 'Afficher « N à l’écoute » pendant le direct' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await userEvent.click(within(part).getByRole('button', { name: 'Publier' }));
    expect(await within(part).findByText(/le lecteur en tient compte/)).toBeInTheDocument();
    expect(saved).toEqual([{ data: { showListeners: true }, basedOn: 'v1' }]);
  });

  it('says the site’s refusal in French, and refuses an answer it cannot read', async () => {
    answer = {
      status: 403,
      body: { error: 'forbidden', message: 'Ces chiffres ne sont pas ceux de votre résidence.' },
    };
    renderWithProviders(<AudienceFigures me={{ name: 'axonberg', role: 'residence', residence: 'axonberg' }} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Ces chiffres ne sont pas ceux de votre résidence.');
    // A figure under the threshold sent as a number is no figure the server sends: refused whole.
    answer = { status: 200, body: { ...FIGURES, trend: [{ week: '2026-11-23', peak: 3, plays: 1 }] } };
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Les chiffres d’audience reçus du site sont illisibles');
    expect(screen.queryByText(/^3$/)).not.toBeInTheDocument();
  });
});

describe('readAudience', () => {
  it('draws no more than the server’s bounds', () => {
    const many = readAudience({
      ...FIGURES,
      slots: Array.from({ length: 100 }, () => ({ ...FIGURES.slots[0], curve: Array.from({ length: 1000 }, () => 5) })),
      moments: Array.from({ length: 50 }, (_, second) => ({ episode: 'a', second, plays: 5 })),
    });
    expect(many.slots).toHaveLength(60);
    expect(many.slots[0]?.curve).toHaveLength(360);
    expect(many.moments).toHaveLength(20);
  });

  it('refuses markup where a figure goes, and garbage', () => {
    expect(() => readAudience({ ...FIGURES, episodes: [{ ...FIGURES.episodes[0], plays: '<b>23</b>' }] })).toThrow(
      'illisibles',
    );
    expect(() => readAudience('beaucoup')).toThrow('illisibles');
  });
});
