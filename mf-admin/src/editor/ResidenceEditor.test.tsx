import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { configureApiBase, type Residence } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeRequest, type FakeServer } from '@collectif/shared/testing';
import { ResidenceEditor } from './ResidenceEditor';
import { setPublicOrigin } from './publicSite';

// The residence's form against a fake /api on loopback (the site's answers as docs/content.md says
// them): what a volunteer sees and what the site is sent.

const axonberg: Residence = {
  id: 'axonberg',
  artist: 'Axonberg',
  show: 'Synapses',
  description: 'Techno <em>lente</em>.\nUn jeudi sur deux.',
  styles: ['techno', 'ambient'],
  instagram: 'https://www.instagram.com/axonberg',
};
const other: Residence = { id: 'autre', artist: 'Autre', show: 'Ailleurs', description: 'Autre chose.', styles: [] };

const version = (id: string, data: Residence[], by = 'dépôt') => ({
  id,
  kind: 'residences',
  by,
  savedAt: '2026-11-25T10:00:00.000Z',
  data,
});

let api: FakeServer;
let saves: FakeRequest[];
let previews: FakeRequest[];
/** What the next preview answers. */
let previewAnswer: { status: number; body: unknown };
/** What the next PUT answers. */
let answer: { status: number; body: unknown };

beforeEach(async () => {
  saves = [];
  previews = [];
  previewAnswer = { status: 200, body: { data: [other, axonberg] } };
  answer = { status: 200, body: { version: { id: 'v2', savedAt: '2026-11-25T11:00:00.000Z' } } };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/content/residences/history': json({ current: 'v1', versions: [] }),
      '/api/content/residences/versions/v1': json(version('v1', [other, axonberg])),
      '/api/content/residences/axonberg/preview': (request, response) => {
        previews.push(request);
        json(previewAnswer.body, previewAnswer.status)(request, response);
      },
      '/api/content/residences/axonberg': (request, response) => {
        saves.push(request);
        json(answer.body, answer.status)(request, response);
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const field = (name: string) => screen.getByLabelText(name);
const sent = (at = 0) => JSON.parse(saves[at]?.body ?? 'null') as { entry: Residence; basedOn: string };

describe('a residence’s form', () => {
  it('opens on the text as saved, and publishes the entry on the version it started from', async () => {
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Résidence : Axonberg' })).toBeInTheDocument();
    // As written (not as served, made safe): the volunteer edits their own words.
    expect(field('Présentation')).toHaveValue('Techno <em>lente</em>.\nUn jeudi sur deux.');
    expect(field('Styles')).toHaveValue('techno, ambient');
    expect(field('Instagram')).toHaveValue('https://www.instagram.com/axonberg');
    expect(screen.getByRole('link', { name: 'Voir la page publique' })).toHaveAttribute('href', '/residences/axonberg');

    await userEvent.clear(field('Émission'));
    await userEvent.type(field('Émission'), 'Synapses, saison 2');
    await userEvent.clear(field('Styles'));
    await userEvent.type(field('Styles'), 'techno, , dub ');
    await userEvent.clear(field('Instagram'));
    // The public page itself, in a frame, with the entry as the site would serve it (e2e/tests/admin.spec.ts
    // follows it into the frame).
    await userEvent.click(screen.getByRole('button', { name: 'Voir l’aperçu de la page' }));
    expect((await screen.findByTitle('Aperçu de la page de la résidence')).getAttribute('src')).toBe(
      '/residences/axonberg',
    );
    expect(
      previews.map((request) => [request.method, (JSON.parse(request.body) as { entry: Residence }).entry.show]),
    ).toEqual([['POST', 'Synapses, saison 2']]);
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));

    expect(await screen.findByRole('status')).toHaveTextContent(/^Publié le 25 novembre 2026 à 12:00/);
    expect(saves.map((request) => request.method)).toEqual(['PUT']);
    expect(sent()).toEqual({
      entry: {
        id: 'axonberg',
        artist: 'Axonberg',
        show: 'Synapses, saison 2',
        description: 'Techno <em>lente</em>.\nUn jeudi sur deux.',
        styles: ['techno', 'dub'],
      },
      basedOn: 'v1',
    });
    // The next save starts from the version just published.
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    await screen.findByRole('status');
    expect(sent(1).basedOn).toBe('v2');
  });

  it('shows the site’s refusal beside the field it names, and keeps what was typed', async () => {
    answer = {
      status: 400,
      body: {
        error: 'invalid',
        message: 'Le contenu a des erreurs : rien n’a été enregistré.',
        problems: ['residences: champ /1/website : forme invalide (attendu : /^https:\\/\\//)'],
      },
    };
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    await userEvent.type(await screen.findByLabelText('Site'), 'http://axonberg.example');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Le contenu a des erreurs : rien n’a été enregistré. Corrigez les champs signalés.',
    );
    expect(field('Site')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Site')).toHaveAccessibleDescription('Adresse https://… forme invalide (attendu : /^https:\\/\\//)');
    expect(field('Site')).toHaveValue('http://axonberg.example');
    expect(field('Instagram')).not.toHaveAttribute('aria-invalid');
  });

  it('puts the other editor’s text beside the volunteer’s on a conflict, and loses neither', async () => {
    const theirs = { ...axonberg, description: 'Leur nouvelle présentation.' };
    answer = {
      status: 409,
      body: {
        error: 'conflict',
        message: 'Modifié entre-temps par camille : comparez avec la version actuelle avant d’enregistrer.',
        current: { ...version('v3', [other, theirs], 'camille'), savedAt: '2026-11-25T10:30:00.000Z' },
      },
    };
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    await userEvent.clear(await screen.findByLabelText('Présentation'));
    await userEvent.type(field('Présentation'), 'Ma présentation.');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Modifié entre-temps par camille');
    expect(alert).toHaveTextContent('Version actuelle (camille, 25 novembre 2026 à 11:30)');
    expect(within(alert).getByText('Leur nouvelle présentation.')).toBeInTheDocument();
    expect(field('Présentation')).toHaveValue('Ma présentation.');

    // Mine, published over theirs knowingly: based on the version that was there.
    answer = { status: 200, body: { version: { id: 'v4', savedAt: '2026-11-25T11:00:00.000Z' } } };
    await userEvent.click(within(alert).getByRole('button', { name: 'Publier ma version à la place' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Publié le');
    expect(sent(1)).toMatchObject({ entry: { description: 'Ma présentation.' }, basedOn: 'v3' });
  });

  it('takes the other editor’s text on request', async () => {
    const theirs = { ...axonberg, show: 'Synapses (leur titre)' };
    answer = {
      status: 409,
      body: {
        error: 'conflict',
        message: 'Modifié entre-temps par camille.',
        current: version('v3', [theirs], 'camille'),
      },
    };
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Publier' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Reprendre la version actuelle' }));
    expect(field('Émission')).toHaveValue('Synapses (leur titre)');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says a refusal of the site in its own words, and a site that does not answer', async () => {
    answer = { status: 403, body: { error: 'forbidden', message: 'Ce compte ne peut pas modifier ce contenu.' } };
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Publier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce compte ne peut pas modifier ce contenu.');

    await api.close();
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(
      await screen.findByText('Le site ne répond pas : vérifiez votre connexion, puis réessayez.'),
    ).toBeInTheDocument();
  });

  it('shows no preview of content the site refuses, and says why beside the field', async () => {
    previewAnswer = {
      status: 400,
      body: {
        error: 'invalid',
        message: 'Le contenu a des erreurs : l’aperçu ne peut pas le montrer.',
        problems: ['residences: champ /1/instagram : forme invalide (attendu : https://www.instagram.com/…)'],
      },
    };
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    await userEvent.clear(await screen.findByLabelText('Instagram'));
    await userEvent.type(field('Instagram'), 'javascript:alert(1)');
    await userEvent.click(screen.getByRole('button', { name: 'Voir l’aperçu de la page' }));
    expect(await screen.findByText(/^L’aperçu ne peut pas montrer un contenu refusé/)).toBeInTheDocument();
    expect(field('Instagram')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Instagram')).toHaveAccessibleDescription(/forme invalide/);
    expect(screen.queryByTitle('Aperçu de la page de la résidence')).not.toBeInTheDocument();
    expect(saves).toEqual([]);
  });

  it('links to the public page and shows its pictures on the public origin, from the editor’s own', async () => {
    // The editor app on the editor's origin (docs/content.md, « The editor app »): its router has no public page.
    setPublicOrigin('https://www.example.org');
    try {
      renderWithProviders(<ResidenceEditor id="axonberg" />);
      const portrait = await screen.findByRole('group', { name: 'Portrait' });
      expect(screen.getByRole('link', { name: 'Voir la page publique' })).toHaveAttribute(
        'href',
        'https://www.example.org/residences/axonberg',
      );
      expect(within(portrait).getByRole('img', { name: 'Portrait actuel' })).toHaveAttribute(
        'src',
        'https://www.example.org/assets/images/residences/axonberg-400.webp',
      );
    } finally {
      setPublicOrigin(null);
    }
  });

  it('says a residence that does not exist', async () => {
    renderWithProviders(<ResidenceEditor id="inconnue" />);
    expect(await screen.findByText('La résidence « inconnue » n’existe pas.')).toBeInTheDocument();
  });

  it('sends a picture as it is, shows the site’s, and publishes it with the entry', async () => {
    const NAME = '0123456789abcdef0123456789abcdef';
    let sentType = '';
    let sentBytes = 0;
    api.routes.set('/api/content/pictures', (request, response) => {
      sentType = String(request.headers['content-type']);
      sentBytes = Buffer.byteLength(request.body, 'latin1');
      const purpose = new URL(request.url, 'http://x').searchParams.get('purpose');
      if (purpose === 'header') {
        json({ error: 'unsupported', message: 'Image refusée : JPEG, PNG, WebP ou AVIF seulement.' }, 415)(
          request,
          response,
        );
        return;
      }
      json({ src: `/media/${NAME}-800.webp` }, 201)(request, response);
    });
    renderWithProviders(<ResidenceEditor id="axonberg" />);
    const portrait = await screen.findByRole('group', { name: 'Portrait' });
    expect(within(portrait).getByRole('img', { name: 'Portrait actuel' })).toHaveAttribute(
      'src',
      '/assets/images/residences/axonberg-400.webp',
    );
    const file = new File(['png bytes'], 'moi.png', { type: 'image/png' });
    const [portraitInput, headerInput] = document.querySelectorAll<HTMLInputElement>('input[type="file"]');
    await userEvent.upload(portraitInput!, file);
    await within(portrait).findByText(/Une image envoyée/);
    expect(sentType).toBe('image/png');
    expect(sentBytes).toBe(9);
    expect(within(portrait).getByRole('img', { name: 'Portrait actuel' })).toHaveAttribute(
      'src',
      `/media/${NAME}-400.webp`,
    );

    // A file the site refuses: its words, beside the picture; nothing else changes.
    await userEvent.upload(headerInput!, new File(['pas une image'], 'faux.png', { type: 'image/png' }));
    const header = screen.getByRole('group', { name: 'Bandeau' });
    expect(await within(header).findByRole('alert')).toHaveTextContent(
      'Image refusée : JPEG, PNG, WebP ou AVIF seulement.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    await screen.findByRole('status');
    expect(sent().entry).toMatchObject({ id: 'axonberg', portrait: `/media/${NAME}-800.webp` });
    expect(sent().entry).not.toHaveProperty('header');

    // Back to the picture named after its id: the field is left out.
    await userEvent.click(within(portrait).getByRole('button', { name: 'Reprendre l’image d’origine' }));
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    await waitFor(() => {
      expect(saves).toHaveLength(2);
    });
    expect(sent(1).entry).not.toHaveProperty('portrait');
  });
});
