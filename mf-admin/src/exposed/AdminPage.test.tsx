import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import AdminPage from './AdminPage';
import InvitationPage from './InvitationPage';

// The editor's pages against a fake /api on loopback. Signing in and accepting an invitation with a
// passkey need a browser's WebAuthn: they are tested in Chromium (e2e/tests/admin.spec.ts).

let api: FakeServer;
let me: { status: number; body: unknown };

const residence = { id: 'axonberg', artist: 'Axonberg', show: 'Synapses', description: 'Techno.', styles: [] };

beforeEach(async () => {
  // Signed out: the site answers null (docs/content.md, « Signing in »).
  me = { status: 200, body: null };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/editor/me': (request, response) => json(me.body, me.status)(request, response),
      '/api/editor/signout': (_request, response) => {
        me = { status: 200, body: null };
        response.writeHead(204).end();
      },
      '/api/content/residences': json([residence, { ...residence, id: 'autre', artist: 'Autre' }]),
      '/api/content/residences/history': json({ current: 'v1', versions: [] }),
      '/api/content/residences/versions/v1': json({
        id: 'v1',
        data: [residence, { ...residence, id: 'autre', artist: 'Autre' }],
      }),
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
  window.location.hash = '';
});

describe('the editor (/admin)', () => {
  it('reads the history again once a form has published, so the new version can be restored from', async () => {
    me = { status: 200, body: { name: 'camille', role: 'about', residence: null } };
    const team = [{ imagePath: '/assets/images/team/camille.webp', title: 'Camille', description: 'Programmation' }];
    const versions = [{ id: 'v1', by: 'dépôt', savedAt: '2026-11-25T10:00:00.000Z' }];
    api.on('/api/content/team/history', (request, response) => {
      json({ current: versions[0]?.id, versions })(request, response);
    });
    api.on('/api/content/team/versions/v1', json({ ...versions[0], kind: 'team', data: team }));
    api.on('/api/content/team', (request, response) => {
      const version = { id: 'v2', by: 'camille', savedAt: '2026-11-25T11:00:00.000Z' };
      versions.unshift(version);
      json({ version })(request, response);
    });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const history = await screen.findByRole('region', { name: /^Historique/ });
    expect(await within(history).findAllByRole('listitem')).toHaveLength(1);
    await userEvent.click(await screen.findByRole('button', { name: 'Publier' }));
    expect(await within(history).findByText('25 novembre 2026 à 12:00, par camille : en ligne')).toBeInTheDocument();
    expect(
      within(history).getByRole('button', { name: 'Rétablir la version du 25 novembre 2026 à 11:00, par dépôt' }),
    ).toBeInTheDocument();
  });

  it('asks a visitor who is not signed in for their passkey, and offers nothing else', async () => {
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(screen.getByRole('heading', { level: 1, name: 'Espace des bénévoles' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Présentation')).not.toBeInTheDocument();
  });

  it('gives a resident their residence’s form only, and signs them out', async () => {
    me = { status: 200, body: { name: 'axonberg', role: 'residence', residence: 'axonberg' } };
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(await screen.findByText(/Connecté·e :/)).toHaveTextContent('Connecté·e : axonberg (résidence « axonberg »)');
    expect(await screen.findByRole('heading', { level: 2, name: 'Résidence : Axonberg' })).toBeInTheDocument();
    // No way to another residence in the interface (the site refuses it too: 403).
    expect(screen.queryByLabelText('Résidence à modifier')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }));
    expect(await screen.findByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeInTheDocument();
  });

  it('shows a resident the versions of their residence, and restores one for their residence alone', async () => {
    me = { status: 200, body: { name: 'axonberg', role: 'residence', residence: 'axonberg' } };
    api.on(
      '/api/content/residences/history',
      json({
        current: 'v1',
        versions: [
          { id: 'v1', by: 'axonberg', savedAt: '2026-11-25T10:00:00.000Z' },
          { id: 'v0', by: 'un autre éditeur', savedAt: '2026-11-20T09:00:00.000Z' },
        ],
        next: null,
      }),
    );
    const restores: string[] = [];
    api.on('/api/content/residences/axonberg/restore', (request, response) => {
      restores.push(request.body);
      json({ version: { id: 'v2', savedAt: '2026-11-25T11:00:00.000Z' } })(request, response);
    });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const history = await screen.findByRole('region', { name: 'Historique : votre résidence' });
    expect((await within(history).findAllByRole('listitem')).map((item) => item.textContent)).toEqual([
      '25 novembre 2026 à 11:00, par axonberg : en ligne',
      '20 novembre 2026 à 10:00, par un autre éditeurRétablir',
    ]);
    await userEvent.click(within(history).getByRole('button', { name: /^Rétablir la version du 20 novembre/ }));
    expect(await within(history).findByRole('status')).toHaveTextContent('rétablie : elle est en ligne.');
    expect(restores.map((body) => JSON.parse(body) as unknown)).toEqual([{ id: 'v0' }]);
  });

  it('lets an admin choose any residence', async () => {
    me = { status: 200, body: { name: 'camille', role: 'admin', residence: null } };
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const picker = await screen.findByLabelText('Résidence à modifier');
    expect(await screen.findByRole('heading', { level: 2, name: 'Résidence : Axonberg' })).toBeInTheDocument();
    await userEvent.selectOptions(picker, 'autre');
    expect(await screen.findByRole('heading', { level: 2, name: 'Résidence : Autre' })).toBeInTheDocument();
  });

  it('says so when the site cannot be reached', async () => {
    await api.close();
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(
      await screen.findByText('Le site ne répond pas : vérifiez votre connexion, puis réessayez.'),
    ).toBeInTheDocument();
    api = await startFakeServer();
  });
});

describe('an invitation’s page (/admin/invitation#…)', () => {
  it('says a link without its token is incomplete', () => {
    renderWithProviders(<InvitationPage />, { route: '/admin/invitation' });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Ce lien d’invitation est incomplet : ouvrez le lien reçu en entier.',
    );
  });

  it('refuses a name that is not one, before asking anything of the site', async () => {
    window.location.hash = '#jeton';
    renderWithProviders(<InvitationPage />, { route: '/admin/invitation' });
    await userEvent.type(screen.getByLabelText('Nom du compte'), 'Léa !');
    await userEvent.click(screen.getByRole('button', { name: 'Créer ma clé d’accès' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Le nom : des lettres minuscules, des chiffres et des tirets');
  });
});
