import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { HOSTILE_TEXTS, json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { LiveArchives, type ArchiveListing, type EditorArchive } from './LiveArchives';

// « Archives du direct » in the editor (docs/archive.md, « The editor ») against a fake /api on
// loopback: a residence's choice, an archive's title, text, cut, published or hidden, deleted;
// titles shown as text; nothing at all when the archives are off.

const archive = (extra: Partial<EditorArchive> = {}): EditorArchive => ({
  id: 'axonberg-2026-11-24-20h00',
  residence: 'axonberg',
  title: 'Synapses — direct du 24 novembre 2026',
  slot: { start: '2026-11-24T19:00:00.000Z', end: '2026-11-24T21:00:00.000Z' },
  seconds: 7170,
  gaps: [{ at: 3600, seconds: 30 }],
  truncated: null,
  published: false,
  ...extra,
});

let api: FakeServer;
let listing: ArchiveListing | null;

beforeEach(async () => {
  listing = {
    mode: 'chosen',
    residences: [{ id: 'axonberg', artist: 'Axonberg', choice: { keep: true, publish: 'review' } }],
    archives: [archive()],
  };
  api = await startFakeServer({
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'content-type',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
    },
    routes: {
      '/api/editor/archives': (request, response) => {
        if (listing === null) {
          json({ error: 'archives_off', message: 'Les archives du direct ne sont pas en service sur ce site.' }, 404)(
            request,
            response,
          );
          return;
        }
        json(listing)(request, response);
      },
      '/api/editor/archives/residences/axonberg': (request, response) => {
        json({ residence: 'axonberg', choice: JSON.parse(request.body) as object })(request, response);
      },
      '/api/editor/archives/axonberg-2026-11-24-20h00': (request, response) => {
        if (request.method === 'DELETE') {
          response.writeHead(204, { 'access-control-allow-origin': '*' });
          response.end();
          return;
        }
        const body = JSON.parse(request.body) as {
          title?: string;
          published?: boolean;
          trim?: { start: number; end: number };
        };
        json(
          archive({
            ...(body.title === undefined ? {} : { title: body.title }),
            ...(body.published === undefined ? {} : { published: body.published }),
            ...(body.trim === undefined ? {} : { seconds: body.trim.end - body.trim.start }),
          }),
        )(request, response);
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const bodyOf = (url: string) =>
  api.requests
    .filter((request) => request.url === url && request.method === 'PUT')
    .map((request) => JSON.parse(request.body) as unknown);

describe('« Archives du direct » in the editor', () => {
  it('shows each archive, its state and its gaps, and saves a residence’s choice', async () => {
    renderWithProviders(<LiveArchives />);
    const item = await screen.findByRole('article', { name: 'Synapses — direct du 24 novembre 2026' });
    expect(within(item).getByText(/en attente de relecture/)).toBeInTheDocument();
    expect(within(item).getByText('Le direct a été interrompu 0:30 à 1:00:00.')).toBeInTheDocument();
    expect(within(item).getByText(/1:59:30/)).toBeInTheDocument();
    const choice = screen.getByRole('form', { name: 'Axonberg' });
    await userEvent.selectOptions(within(choice).getByLabelText(/Publication/), 'tout de suite');
    await userEvent.click(within(choice).getByRole('button', { name: 'Enregistrer le choix' }));
    expect(await within(choice).findByRole('status')).toHaveTextContent('Choix enregistré.');
    expect(bodyOf('/api/editor/archives/residences/axonberg')).toEqual([{ keep: true, publish: 'now' }]);
  });

  it('publishes, cuts and retitles an archive, and deletes it after a confirmation', async () => {
    renderWithProviders(<LiveArchives />);
    const item = await screen.findByRole('article', { name: /Synapses/ });
    await userEvent.click(within(item).getByRole('button', { name: 'Publier' }));
    expect(await within(item).findByRole('status')).toHaveTextContent('Archive publiée.');
    expect(within(item).getByRole('button', { name: 'Masquer' })).toBeInTheDocument();
    await userEvent.clear(within(item).getByLabelText(/Intitulé/));
    await userEvent.type(within(item).getByLabelText(/Intitulé/), 'Synapses, la spéciale');
    await userEvent.click(within(item).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Synapses, la spéciale' })).toBeInTheDocument();
    await userEvent.clear(within(item).getByLabelText(/Début/));
    await userEvent.type(within(item).getByLabelText(/Début/), '60');
    await userEvent.clear(within(item).getByLabelText(/Fin/));
    await userEvent.type(within(item).getByLabelText(/Fin/), '120');
    await userEvent.click(within(item).getByRole('button', { name: 'Couper' }));
    expect(await within(item).findByText('Archive coupée.')).toBeInTheDocument();
    const path = '/api/editor/archives/axonberg-2026-11-24-20h00';
    expect(bodyOf(path)).toEqual([
      { published: true },
      { title: 'Synapses, la spéciale', text: '' },
      { trim: { start: 60, end: 120 } },
    ]);
    await userEvent.click(within(item).getByRole('button', { name: 'Supprimer' }));
    expect(api.requests.some((request) => request.method === 'DELETE')).toBe(false);
    await userEvent.click(within(item).getByRole('button', { name: 'Confirmer la suppression' }));
    expect(await screen.findByText('Aucune émission en direct gardée pour le moment.')).toBeInTheDocument();
  });

  it('shows hostile titles as text, never as markup', async () => {
    if (listing !== null) {
      listing.archives = HOSTILE_TEXTS.map((title, index) =>
        archive({ id: `axonberg-2026-11-${String(10 + index)}-20h00`, title }),
      );
    }
    const { container } = renderWithProviders(<LiveArchives />);
    for (const title of HOSTILE_TEXTS) {
      expect(await screen.findByRole('heading', { level: 3, name: title.trim() })).toBeInTheDocument();
    }
    expect(container.querySelector('script, img, a[href^="javascript"]')).toBeNull();
  });

  it('shows nothing when the site keeps no live show', async () => {
    listing = null;
    const { container } = renderWithProviders(<LiveArchives />);
    await waitFor(() => {
      expect(api.requests.map((request) => request.url)).toContain('/api/editor/archives');
    });
    await waitFor(() => {
      expect(container).toBeEmptyDOMElement();
    });
  });
});
