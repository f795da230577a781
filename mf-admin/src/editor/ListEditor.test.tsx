import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeRequest, type FakeServer } from '@collectif/shared/testing';
import { History } from './History';
import { LIST_KINDS, ListEditor } from './ListEditor';

// The forms of the list kinds and the history, against a fake /api on loopback.

const team = [
  { imagePath: '/assets/images/team/camille.webp', title: 'Camille', description: 'Programmation' },
  { imagePath: '/assets/images/team/yanis.webp', title: 'Yanis', description: 'Technique' },
];
const version = (id: string, data: unknown, by = 'dépôt', savedAt = '2026-11-25T10:00:00.000Z') => ({
  id,
  kind: 'team',
  by,
  savedAt,
  data,
});

let api: FakeServer;
let writes: FakeRequest[];
let answer: { status: number; body: unknown };

beforeEach(async () => {
  writes = [];
  answer = { status: 200, body: { version: { id: 'v2', savedAt: '2026-11-25T11:00:00.000Z' } } };
  const reply = (request: FakeRequest, response: Parameters<ReturnType<typeof json>>[1]) => {
    writes.push(request);
    json(answer.body, answer.status)(request, response);
  };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/content/team/history': json({
        current: 'v1',
        versions: [
          { id: 'v1', by: 'camille', savedAt: '2026-11-25T10:00:00.000Z' },
          { id: 'v0', by: 'dépôt', savedAt: '2026-11-20T09:00:00.000Z' },
        ],
      }),
      '/api/content/team/versions/v1': json(version('v1', team, 'camille')),
      '/api/content/team': reply,
      '/api/content/team/restore': reply,
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const sent = (at = 0) => JSON.parse(writes[at]?.body ?? 'null') as { data: unknown; basedOn?: string; id?: string };

describe('a list’s form', () => {
  it('edits, adds, moves and removes entries, and publishes the whole list on its version', async () => {
    renderWithProviders(<ListEditor list={LIST_KINDS.team} />);
    const first = await screen.findByRole('group', { name: 'Membre 1 : Camille' });
    await userEvent.clear(within(first).getByLabelText('Rôles'));
    await userEvent.type(within(first).getByLabelText('Rôles'), 'Programmation, accueil');
    await userEvent.click(screen.getByRole('button', { name: 'Ajouter : membre' }));
    const added = screen.getByRole('group', { name: 'Membre 3 :' });
    await userEvent.type(within(added).getByLabelText('Prénom'), 'Léa');
    await userEvent.type(within(added).getByLabelText('Rôles'), 'Graphisme');
    await userEvent.type(within(added).getByLabelText('Photo'), '/assets/images/team/lea.webp');
    await userEvent.click(screen.getByRole('button', { name: 'Monter : Membre 3 : Léa' }));
    await userEvent.click(screen.getByRole('button', { name: 'Retirer : Membre 3 : Yanis' }));
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));

    expect(await screen.findByRole('status')).toHaveTextContent('la page À propos la montre déjà.');
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual(['PUT /api/content/team']);
    expect(sent()).toEqual({
      data: [
        { title: 'Camille', description: 'Programmation, accueil', imagePath: '/assets/images/team/camille.webp' },
        { title: 'Léa', description: 'Graphisme', imagePath: '/assets/images/team/lea.webp' },
      ],
      basedOn: 'v1',
    });
  });

  it('shows a refusal beside the field of the entry it names', async () => {
    answer = {
      status: 400,
      body: {
        error: 'invalid',
        message: 'Le contenu a des erreurs : rien n’a été enregistré.',
        problems: ['team: champ /1/imagePath : forme invalide (attendu : /^\\/assets\\/images\\/team\\//)'],
      },
    };
    renderWithProviders(<ListEditor list={LIST_KINDS.team} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Publier' }));
    await screen.findByRole('alert');
    const second = screen.getByRole('group', { name: 'Membre 2 : Yanis' });
    expect(within(second).getByLabelText('Photo')).toHaveAttribute('aria-invalid', 'true');
    expect(within(second).getByLabelText('Photo')).toHaveAccessibleDescription(/forme invalide/);
    const first = screen.getByRole('group', { name: 'Membre 1 : Camille' });
    expect(within(first).getByLabelText('Photo')).not.toHaveAttribute('aria-invalid');
  });

  it('leaves an optional field out when empty (a slide without link)', async () => {
    api.routes.set('/api/content/slides/history', json({ current: 's1', versions: [] }));
    api.routes.set(
      '/api/content/slides/versions/s1',
      json(
        version('s1', [
          { imagePath: '/assets/images/slides/a.webp', titre: 'A', description: 'Texte', link: 'https://a.example' },
        ]),
      ),
    );
    api.routes.set('/api/content/slides', (request, response) => {
      writes.push(request);
      json(answer.body)(request, response);
    });
    renderWithProviders(<ListEditor list={LIST_KINDS.slides} />);
    await userEvent.clear(await screen.findByLabelText('Lien'));
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    await screen.findByRole('status');
    expect(sent().data).toEqual([{ titre: 'A', description: 'Texte', imagePath: '/assets/images/slides/a.webp' }]);
  });
});

describe('the history', () => {
  it('says who saved what, and puts an earlier version back online in one action', async () => {
    const restored = jest.fn();
    renderWithProviders(<History kind="team" title="L’équipe" published={0} onRestored={restored} />);
    const list = await screen.findByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['25 novembre 2026 à 11:00, par camille : en ligne', '20 novembre 2026 à 10:00, par dépôtRétablir']);
    await userEvent.click(
      screen.getByRole('button', { name: 'Rétablir la version du 20 novembre 2026 à 10:00, par dépôt' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Version du 20 novembre 2026 à 10:00 rétablie : elle est en ligne.',
    );
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /api/content/team/restore']);
    expect(sent()).toEqual({ id: 'v0' });
    expect(restored).toHaveBeenCalledTimes(1);
  });

  it('shows the ten newest versions, and the older ones a page at a time', async () => {
    const saved = (day: number) => ({
      id: `v${String(day)}`,
      by: 'camille',
      savedAt: `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    });
    const days = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => saved(from - i));
    api.on('/api/content/team/history', (request, response) => {
      const older = new URL(request.url, api.origin).searchParams.get('before') === 'v11';
      json(
        older
          ? { current: 'v20', versions: days(10, 9), next: null }
          : { current: 'v20', versions: days(20, 11), next: 'v11' },
      )(request, response);
    });
    renderWithProviders(<History kind="team" title="L’équipe" published={0} onRestored={jest.fn()} />);
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Versions plus anciennes' }));
    expect(await within(list).findByText(/^9 novembre 2026/)).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    expect(screen.queryByRole('button', { name: 'Versions plus anciennes' })).not.toBeInTheDocument();
    expect(
      api.requests.filter(({ path }) => path === '/api/content/team/history').map(({ url }) => url.split('?')[1]),
    ).toEqual(['limit=10', 'limit=10&before=v11']);
  });
});
