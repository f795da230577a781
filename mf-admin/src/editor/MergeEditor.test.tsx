import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeRequest, type FakeServer } from '@collectif/shared/testing';
import { MergeEditor } from './MergeEditor';

// The admins' merges of played artists (docs/artists.md, « Merges »), against a fake /api on loopback.

const merges = [{ into: 'basic-channel', names: ['Basic Chanel'] }];

let api: FakeServer;
let writes: FakeRequest[];
let answer: { status: number; body: unknown };
let artists: unknown;

beforeEach(async () => {
  writes = [];
  answer = { status: 200, body: { version: { id: 'v2', savedAt: '2026-11-25T11:00:00.000Z' } } };
  artists = {
    items: [
      { slug: 'moritz-von-oswald-trio', name: 'Moritz von Oswald Trio', plays: 3, releases: 0 },
      // A hostile answer's artist (no usable slug) is not offered.
      { slug: '<script>', name: 'Piège', plays: 1, releases: 0 },
    ],
    page: 1,
    pages: 1,
    total: 2,
  };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/content/artistMerges/history': json({
        current: 'v1',
        versions: [{ id: 'v1', by: 'camille', savedAt: '2026-11-25T10:00:00.000Z' }],
      }),
      '/api/content/artistMerges/versions/v1': json({
        id: 'v1',
        kind: 'artistMerges',
        by: 'camille',
        savedAt: '2026-11-25T10:00:00.000Z',
        data: merges,
      }),
      '/api/content/artistMerges': (request, response) => {
        writes.push(request);
        json(answer.body, answer.status)(request, response);
      },
      '/api/artists': (request, response) => {
        json(artists)(request, response);
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const sent = () => JSON.parse(writes[0]?.body ?? 'null') as { data: unknown; basedOn?: string };

describe('the artists’ merges', () => {
  it('adds a spelling found by the search to a merge and publishes the whole list on its version', async () => {
    renderWithProviders(<MergeEditor />);
    const first = await screen.findByRole('group', { name: 'Fusion 1 : basic-channel' });
    expect(within(first).getByLabelText('Autres graphies')).toHaveValue('Basic Chanel');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Chercher un artiste' }), 'moritz{Enter}');
    const found = await screen.findByRole('list', { name: 'Artistes trouvés' });
    expect(within(found).getAllByRole('listitem')).toHaveLength(1);
    await userEvent.click(within(found).getByRole('button', { name: 'Autre graphie : Moritz von Oswald Trio' }));
    expect(within(first).getByLabelText('Autres graphies')).toHaveValue('Basic Chanel\nMoritz von Oswald Trio');

    await userEvent.click(screen.getByRole('button', { name: 'Ajouter : fusion' }));
    const added = screen.getByRole('group', { name: 'Fusion 2 :' });
    await userEvent.type(within(added).getByLabelText('Page qui reste'), 'bjork');
    await userEvent.type(within(added).getByLabelText('Autres graphies'), '  Björk Guðmundsdóttir  {Enter}{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));

    expect(await screen.findByRole('status')).toHaveTextContent('les pages des artistes la montrent déjà.');
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual(['PUT /api/content/artistMerges']);
    expect(sent()).toEqual({
      data: [
        { into: 'basic-channel', names: ['Basic Chanel', 'Moritz von Oswald Trio'] },
        { into: 'bjork', names: ['Björk Guðmundsdóttir'] },
      ],
      basedOn: 'v1',
    });
  });

  it('shows the site’s refusal beside the field of the merge it names, and loses nothing', async () => {
    answer = {
      status: 400,
      body: {
        error: 'invalid',
        message: 'Le contenu a des erreurs : rien n’a été enregistré.',
        problems: ['artistMerges: champ /0/into : forme invalide (une adresse d’artiste)'],
      },
    };
    renderWithProviders(<MergeEditor />);
    const first = await screen.findByRole('group', { name: 'Fusion 1 : basic-channel' });
    const into = within(first).getByLabelText('Page qui reste');
    await userEvent.clear(into);
    await userEvent.type(into, '<b>Basic</b>');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Le contenu a des erreurs');
    expect(into).toHaveAttribute('aria-invalid', 'true');
    expect(into).toHaveAccessibleDescription(/forme invalide/);
    expect(into).toHaveValue('<b>Basic</b>');
  });

  it('says so when the search finds no artist', async () => {
    artists = { items: [], page: 1, pages: 1, total: 0 };
    renderWithProviders(<MergeEditor />);
    await screen.findByRole('group', { name: 'Fusion 1 : basic-channel' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Chercher un artiste' }), 'personne');
    await userEvent.click(screen.getByRole('button', { name: 'Chercher' }));
    expect(await screen.findByText('Aucun artiste ne porte ce nom.')).toBeInTheDocument();
  });
});
