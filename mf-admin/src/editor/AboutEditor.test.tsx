import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeRequest, type FakeServer } from '@collectif/shared/testing';
import { AboutEditor } from './AboutEditor';

// The About page's texts, against a fake /api on loopback: the form follows the text's shape, and
// what it publishes has that shape.

// Part of the About page's text (mf-about/content/about.json has every section): the form knows
// no section by name, it follows the shape it is given.
const about = {
  heading: 'À propos',
  collective: { heading: 'Le collectif', paragraphs: ['Nous sommes une association.', 'Tout a commencé.'] },
  values: {
    heading: 'Nos valeurs',
    items: [
      { title: 'L’ouverture', text: 'Chacun arrive avec ses disques.' },
      { title: 'Le partage', text: 'On se transmet le matériel.' },
      { title: 'L’indépendance', text: 'Pas d’actionnaire.' },
      { title: 'La bienveillance', text: 'Le respect avant tout.' },
    ],
  },
  funding: {
    heading: 'Autofinancement',
    paragraphs: ['Le projet s’autofinance.'],
    sourcesLabel: 'Nos ressources',
    sources: ['le merchandising', 'les soirées', 'les dons'],
  },
  support: { heading: 'Nous soutenir', paragraphs: ['La radio reste gratuite.'], button: 'Faire un don' },
};

type About = typeof about;

let api: FakeServer;
let writes: FakeRequest[];
let answer: { status: number; body: unknown };

beforeEach(async () => {
  writes = [];
  answer = { status: 200, body: { version: { id: 'v2', savedAt: '2026-11-25T11:00:00.000Z' } } };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/content/about/history': json({ current: 'v1', versions: [] }),
      '/api/content/about/versions/v1': json({
        id: 'v1',
        kind: 'about',
        by: 'dépôt',
        savedAt: '2026-11-25T10:00:00.000Z',
        data: about,
      }),
      '/api/content/about': (request, response) => {
        writes.push(request);
        json(answer.body, answer.status)(request, response);
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const sent = () => JSON.parse(writes[0]?.body ?? 'null') as { data: About; basedOn: string };
const section = (name: string | RegExp) => within(screen.getByRole('group', { name }));

describe('the About page’s texts', () => {
  it('names each section by its title, edits a text, adds and removes in lists, and publishes the whole text', async () => {
    renderWithProviders(<AboutEditor />);
    const collective = within(await screen.findByRole('group', { name: 'Le collectif' }));
    const second = collective.getByLabelText('Paragraphe 2');
    expect(second).toHaveValue(about.collective.paragraphs[1]);
    await userEvent.clear(second);
    await userEvent.type(second, 'Un nouveau paragraphe.');

    const values = section('Valeurs : Nos valeurs');
    expect(values.getByRole('group', { name: `Valeur 1 : ${about.values.items[0]?.title ?? ''}` })).toBeInTheDocument();
    await userEvent.click(values.getByRole('button', { name: 'Ajouter : valeur, Valeurs' }));
    const added = within(values.getByRole('group', { name: 'Valeur 5 :' }));
    await userEvent.type(added.getByLabelText('Titre'), 'La curiosité');
    await userEvent.type(added.getByLabelText('Texte'), 'Toujours chercher.');
    await userEvent.click(
      section(/^Financement/).getByRole('button', { name: /^Retirer : Financement, Ressource 1$/ }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));

    expect(await screen.findByRole('status')).toHaveTextContent(/^Publié le 25 novembre 2026 à 12:00/);
    const { data, basedOn } = sent();
    expect(basedOn).toBe('v1');
    expect(data.collective.paragraphs).toEqual([about.collective.paragraphs[0], 'Un nouveau paragraphe.']);
    expect(data.values.items.at(-1)).toEqual({ title: 'La curiosité', text: 'Toujours chercher.' });
    expect(data.funding.sources).toEqual(about.funding.sources.slice(1));
    // Nothing else moved: the same keys, the same other texts.
    expect({ ...data, collective: about.collective, values: about.values, funding: about.funding }).toEqual(about);
  });

  it('shows the site’s refusal beside the field its pointer names, and keeps what was typed', async () => {
    answer = {
      status: 400,
      body: {
        error: 'invalid',
        message: 'Le contenu a des erreurs : rien n’a été enregistré.',
        problems: ['about: champ /values/items/1/title : trop court (attendu : >=1)'],
      },
    };
    renderWithProviders(<AboutEditor />);
    const values = within(await screen.findByRole('group', { name: 'Valeurs : Nos valeurs' }));
    const title = within(values.getByRole('group', { name: 'Valeur 2 : Le partage' })).getByLabelText('Titre');
    await userEvent.clear(title);
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Le contenu a des erreurs : rien n’a été enregistré.');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription('trop court (attendu : >=1)');
    expect(title).toHaveValue('');
  });

  it('keeps one element in a list that needs one', async () => {
    renderWithProviders(<AboutEditor />);
    const support = within(await screen.findByRole('group', { name: 'Nous soutenir' }));
    expect(support.getByRole('button', { name: 'Retirer : Nous soutenir, Paragraphe 1' })).toBeDisabled();
  });
});
