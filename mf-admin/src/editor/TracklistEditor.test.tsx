import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeRequest, type FakeServer } from '@collectif/shared/testing';
import { secondsOf, timeText, TracklistEditor } from './TracklistEditor';

// « Listes de titres » against a fake /api on loopback (the site's answers as docs/content.md,
// « Tracklists », says them): what a volunteer sees and what the site is sent.

const episode = (slug: string, show: string, pubDate: string) => ({
  slug,
  show,
  artist: 'Axonberg',
  pubDate,
  duration: 3600,
  url: `/audio/${slug}.mp3`,
  cover: '',
  link: `https://example.org/${slug}`,
  residences: ['axonberg'],
  styles: [],
});
const episodes = [
  episode('axonberg-synapses-12', 'Synapses #12', '2026-11-24T21:00:00.000Z'),
  episode('axonberg-synapses-11', 'Synapses #11', '2026-11-17T21:00:00.000Z'),
];
const releases = [
  { href: '/album/synapses-ep', title: 'Synapses EP', artist: 'Axonberg', image: '/a.webp' },
  { href: '/album/froid-sec', title: 'Froid Sec', artist: 'Verglas', image: '/b.webp' },
];
const saved12 = {
  episode: 'axonberg-synapses-12',
  tracks: [
    { start: 0, artist: 'Axonberg', title: 'Synapse 7', release: '/album/synapses-ep' },
    { start: 65, artist: 'Basic Channel', title: 'Phylyps Trak' },
  ],
};

let api: FakeServer;
let writes: FakeRequest[];
let answer: { status: number; body: unknown };
let recorded: unknown;

beforeEach(async () => {
  writes = [];
  answer = { status: 200, body: { version: { id: 'v2', savedAt: '2026-11-25T11:00:00.000Z' } } };
  recorded = {
    duration: 3600,
    slot: {
      source: 'programme',
      from: '2026-11-24T19:00:00.000Z',
      to: '2026-11-24T21:00:00.000Z',
      title: 'Axonberg · Synapses',
    },
    rows: [
      { start: 0, artist: 'Deepchord', title: 'Vantage Isle' },
      { start: 3725, artist: 'Verglas', title: 'Froid Sec' },
    ],
    dropped: 1,
  };
  const write = (request: FakeRequest, response: Parameters<ReturnType<typeof json>>[1]) => {
    writes.push(request);
    json(answer.body, answer.status)(request, response);
  };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, PUT, DELETE' },
    routes: {
      '/api/episodes': json({ items: episodes, total: 2, page: 1, pages: 1, pageSize: 24 }),
      '/api/releases': json(releases),
      '/api/content/tracklists/axonberg-synapses-12/current': json({ version: 'v1', duration: 3600, entry: saved12 }),
      '/api/content/tracklists/axonberg-synapses-11/current': json({ version: 'v1', duration: 3600, entry: null }),
      '/api/content/tracklists/axonberg-synapses-12/recorded': (request, response) => {
        json(recorded)(request, response);
      },
      '/api/content/tracklists/axonberg-synapses-11/recorded': (request, response) => {
        json(recorded)(request, response);
      },
      '/api/content/tracklists/axonberg-synapses-12': write,
      '/api/content/tracklists/axonberg-synapses-11': write,
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const sent = (at = 0) => JSON.parse(writes[at]?.body ?? 'null') as { entry: unknown; basedOn?: string };
const row = (name: string) => screen.getByRole('group', { name });

describe('times of a replay', () => {
  it('reads m:ss and h:mm:ss, and writes them back', () => {
    expect([secondsOf('0:00'), secondsOf('4:05'), secondsOf('1:02:30'), secondsOf(' 75:00 ')]).toEqual([
      0, 245, 3750, 4500,
    ]);
    expect([secondsOf('4:5'), secondsOf('1:60:00'), secondsOf('abc'), secondsOf('4'), secondsOf('')]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect([timeText(0), timeText(65), timeText(3750)]).toEqual(['0:00', '1:05', '1:02:30']);
  });
});

describe('« Listes de titres »', () => {
  it('opens the newest episode’s list, edits, adds, moves and removes rows, and saves the list on its version', async () => {
    renderWithProviders(<TracklistEditor residence="axonberg" />);
    const first = await screen.findByRole('group', { name: 'Titre 1 : Axonberg — Synapse 7' });
    expect(screen.getByLabelText('Épisode')).toHaveDisplayValue('Synapses #12 · 24 novembre');
    expect(within(first).getByLabelText('Début')).toHaveValue('0:00');
    expect(within(first).getByLabelText('Sortie du label (facultatif)')).toHaveDisplayValue('Axonberg — Synapses EP');
    const second = row('Titre 2 : Basic Channel — Phylyps Trak');
    expect(within(second).getByLabelText('Début')).toHaveValue('1:05');

    await userEvent.click(screen.getByRole('button', { name: 'Ajouter un titre' }));
    const added = row('Titre 3 :');
    expect(within(added).getByLabelText('Début')).toHaveValue('1:06');
    await userEvent.clear(within(added).getByLabelText('Début'));
    await userEvent.type(within(added).getByLabelText('Début'), '1:02:30');
    await userEvent.type(within(added).getByLabelText('Artiste'), 'Verglas');
    await userEvent.type(within(added).getByLabelText('Titre'), 'Froid Sec');
    await userEvent.selectOptions(within(added).getByLabelText('Sortie du label (facultatif)'), 'Verglas — Froid Sec');
    await userEvent.click(screen.getByRole('button', { name: 'Monter : Titre 2 : Basic Channel — Phylyps Trak' }));
    await userEvent.click(screen.getByRole('button', { name: 'Retirer : Titre 2 : Axonberg — Synapse 7' }));
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText(/la page de l’émission et son lecteur la montrent déjà/)).toBeInTheDocument();
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'PUT /api/content/tracklists/axonberg-synapses-12',
    ]);
    expect(sent()).toEqual({
      entry: {
        episode: 'axonberg-synapses-12',
        tracks: [
          { start: 65, artist: 'Basic Channel', title: 'Phylyps Trak' },
          { start: 3750, artist: 'Verglas', title: 'Froid Sec', release: '/album/froid-sec' },
        ],
      },
      basedOn: 'v1',
    });
  });

  it('says a time it cannot read beside its row and sends nothing', async () => {
    renderWithProviders(<TracklistEditor residence="axonberg" />);
    const first = await screen.findByRole('group', { name: 'Titre 1 : Axonberg — Synapse 7' });
    await userEvent.clear(within(first).getByLabelText('Début'));
    await userEvent.type(within(first).getByLabelText('Début'), '4 minutes');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Des heures de début sont à corriger : rien n’a été enregistré.',
    );
    expect(within(first).getByLabelText('Début')).toHaveAccessibleDescription(
      'm:ss ou h:mm:ss Heure invalide : écrivez m:ss ou h:mm:ss, par exemple 4:05 ou 1:02:30.',
    );
    expect(writes).toEqual([]);
  });

  it('shows the site’s refusals beside the rows they name', async () => {
    answer = {
      status: 400,
      body: {
        error: 'invalid',
        message: 'Le contenu a des erreurs : rien n’a été enregistré.',
        problems: [
          'tracklists: champ /tracks/1/start : après la fin de l’émission (3600 s)',
          'tracklists: champ /tracks/0/artist : sans balise ni caractère de contrôle',
        ],
      },
    };
    renderWithProviders(<TracklistEditor residence="axonberg" />);
    await screen.findByRole('group', { name: 'Titre 1 : Axonberg — Synapse 7' });
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Le contenu a des erreurs : rien n’a été enregistré.');
    const first = row('Titre 1 : Axonberg — Synapse 7');
    expect(within(first).getByLabelText('Artiste')).toHaveAccessibleDescription('sans balise ni caractère de contrôle');
    expect(within(first).getByLabelText('Artiste')).toBeInvalid();
    expect(within(row('Titre 2 : Basic Channel — Phylyps Trak')).getByLabelText('Début')).toHaveAccessibleDescription(
      'm:ss ou h:mm:ss après la fin de l’émission (3600 s)',
    );
  });

  it('prefills from what the radio recorded, says from when, and says when nothing was', async () => {
    renderWithProviders(<TracklistEditor residence="axonberg" />);
    await screen.findByRole('group', { name: 'Titre 1 : Axonberg — Synapse 7' });
    await userEvent.selectOptions(screen.getByLabelText('Épisode'), 'Synapses #11 · 17 novembre');
    expect(await screen.findByText('Aucun titre pour l’instant.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Supprimer la liste' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Pré-remplir depuis l’antenne' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      '2 titre(s) enregistré(s) à l’antenne entre 20:00 et 22:00 le 24 novembre (Axonberg · Synapses), repris dans la liste (1 au-delà de la durée de l’émission laissé(s) de côté) : vérifiez-les, puis enregistrez.',
    );
    expect(within(row('Titre 1 : Deepchord — Vantage Isle')).getByLabelText('Début')).toHaveValue('0:00');
    expect(within(row('Titre 2 : Verglas — Froid Sec')).getByLabelText('Début')).toHaveValue('1:02:05');

    recorded = {
      duration: 3600,
      slot: { source: 'duree', from: '2026-11-17T20:00:00.000Z', to: '2026-11-17T21:00:00.000Z' },
      rows: [],
      dropped: 0,
    };
    await userEvent.click(screen.getByRole('button', { name: 'Pré-remplir depuis l’antenne' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Aucun titre n’a été enregistré à l’antenne entre 21:00 et 22:00 le 17 novembre (la durée de l’émission avant sa publication) : ajoutez les titres à la main.',
    );
    // The rows prefilled are still there.
    expect(row('Titre 1 : Deepchord — Vantage Isle')).toBeInTheDocument();
  });

  it('removes a list, and says the site’s refusal of a list it may not open', async () => {
    renderWithProviders(<TracklistEditor residence="axonberg" />);
    await screen.findByRole('group', { name: 'Titre 1 : Axonberg — Synapse 7' });
    await userEvent.click(screen.getByRole('button', { name: 'Supprimer la liste' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Liste supprimée le 25 novembre 2026 à 12:00 : la page de l’émission ne la montre plus.',
    );
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'DELETE /api/content/tracklists/axonberg-synapses-12',
    ]);
    expect(screen.queryByRole('group')).toBeNull();

    api.on(
      '/api/content/tracklists/axonberg-synapses-11/current',
      json({ error: 'forbidden', message: 'Ce compte ne peut pas modifier ce contenu.' }, 403),
    );
    await userEvent.selectOptions(screen.getByLabelText('Épisode'), 'Synapses #11 · 17 novembre');
    expect(await screen.findByText('Ce compte ne peut pas modifier ce contenu.')).toBeInTheDocument();
  });
});
