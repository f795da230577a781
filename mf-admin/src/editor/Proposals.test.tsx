import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { HOSTILE_TEXTS, json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { Proposals, replyHref, type EditorProposal } from './Proposals';

// « Propositions » in the editor (docs/proposals.md, « In the editor ») against a fake /api on
// loopback: every field is the public's text, shown as text; links out only when https.

const proposal = (extra: Partial<EditorProposal> = {}): EditorProposal => ({
  number: 'E-2026-0042',
  kind: 'emission',
  name: 'Les Ondes Lentes',
  makers: 'Camille et Sacha',
  style: 'ambient',
  links: ['https://soundcloud.com/ondes/un', 'https://www.mixcloud.com/ondes/deux/'],
  when: 'le mardi soir',
  email: 'camille@example.org',
  message: 'Une heure par mois.',
  createdAt: '2026-11-26T18:30:00.000Z',
  state: 'nouvelle',
  notes: [],
  mails: { team: 'off', ack: 'off' },
  reply: { subject: 'Votre proposition E-2026-0042', text: 'Bonjour,\n\nMerci pour « Les Ondes Lentes » & co.' },
  ...extra,
});

let api: FakeServer;
let list: EditorProposal[];
/** A second page, behind the cursor `curseur-2`, when set. */
let older: EditorProposal[] | null;

beforeEach(async () => {
  list = [proposal(), proposal({ number: 'E-2026-0041', name: 'Radio Brique', state: 'retenue' })];
  older = null;
  api = await startFakeServer({
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'content-type',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
    },
    routes: {
      '/api/editor/proposals': (request, response) => {
        const second = new URL(request.url, api.origin).searchParams.get('apres') === 'curseur-2';
        const page =
          older === null
            ? { proposals: list, next: null }
            : second
              ? { proposals: older, next: null }
              : { proposals: list, next: 'curseur-2' };
        json({ mail: 'off', ...page })(request, response);
      },
      '/api/editor/proposals/D-2026-0007': json({
        mail: 'off',
        proposal: proposal({ number: 'D-2026-0007', kind: 'demo', name: 'Cassette Verte' }),
      }),
      '/api/editor/proposals/E-2026-0042/state': (request, response) => {
        const { state } = JSON.parse(request.body) as { state: EditorProposal['state'] };
        json({ mail: 'off', proposal: proposal({ state }) })(request, response);
      },
      '/api/editor/proposals/E-2026-0042/notes': (request, response) => {
        const { text } = JSON.parse(request.body) as { text: string };
        json(
          { mail: 'off', proposal: proposal({ notes: [{ text, author: 'Lou', at: '2026-11-27T09:00:00.000Z' }] }) },
          201,
        )(request, response);
      },
      '/api/editor/proposals/E-2026-0042': (_request, response) => {
        response.writeHead(204, { 'access-control-allow-origin': '*' });
        response.end();
      },
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  await api.close();
});

const article = (name: RegExp) => screen.getByRole('article', { name });

describe('« Propositions » in the editor', () => {
  it('lists the proposals as the server gives them, newest first, and says that no e-mail leaves', async () => {
    renderWithProviders(<Proposals role="admin" />);
    const items = await screen.findAllByRole('article');
    expect(items.map((item) => within(item).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'E-2026-0042 Les Ondes Lentes',
      'E-2026-0041 Radio Brique',
    ]);
    expect(screen.getByText(/L’envoi d’e-mails est coupé sur ce site/)).toBeInTheDocument();
    const first = article(/E-2026-0042/);
    const link = within(first).getByRole('link', { name: 'https://soundcloud.com/ondes/un' });
    expect(link).toHaveAttribute('href', 'https://soundcloud.com/ondes/un');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(first).getByRole('link', { name: 'Répondre' })).toHaveAttribute(
      'href',
      'mailto:camille@example.org?subject=Votre%20proposition%20E-2026-0042&body=Bonjour%2C%0A%0AMerci%20pour%20%C2%AB%20Les%20Ondes%20Lentes%20%C2%BB%20%26%20co.',
    );
    // An admin filters by kind and state; the server is asked for them.
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Démos');
    await userEvent.selectOptions(screen.getByLabelText('État'), 'retenue');
    await screen.findAllByRole('article');
    expect(
      api.requests.map((request) => request.url).filter((url) => url.startsWith('/api/editor/proposals?')),
    ).toContain('/api/editor/proposals?kind=demo&state=retenue');
  });

  it('shows the hostile corpus as text in every field, and a link only when it is https', async () => {
    list = HOSTILE_TEXTS.map((text, index) =>
      proposal({
        number: `E-2026-00${String(10 + index)}`,
        name: text,
        makers: text,
        style: text,
        when: text,
        message: text,
        links: [text, 'javascript:alert(1)'],
        notes: [{ text, author: text, at: '2026-11-27T09:00:00.000Z' }],
      }),
    );
    const { container } = renderWithProviders(<Proposals role="programmation" />);
    await screen.findAllByRole('article');
    for (const text of HOSTILE_TEXTS) expect(screen.getAllByText(text, { exact: true }).length).toBeGreaterThan(0);
    expect(container.querySelector('script, img, a[href^="javascript"]')).toBeNull();
    expect(container.querySelectorAll('a[href]:not([href^="https://"]):not([href^="mailto:"])')).toHaveLength(0);
    // The programmation team sees the shows alone: no choice of kind.
    expect(screen.queryByLabelText('Type')).toBeNull();
  });

  it('changes a state, adds a note signed by the server, and deletes after a confirmation', async () => {
    renderWithProviders(<Proposals role="admin" />);
    await screen.findAllByRole('article');
    const first = article(/E-2026-0042/);
    await userEvent.selectOptions(within(first).getByLabelText('État de E-2026-0042'), 'retenue');
    expect(await within(first).findByText('État : retenue.')).toBeInTheDocument();
    expect(within(first).getByLabelText('État de E-2026-0042')).toHaveValue('retenue');

    await userEvent.type(within(first).getByLabelText(/Ajouter une note/), '<b>À écouter</b> mardi');
    await userEvent.click(within(first).getByRole('button', { name: 'Ajouter la note' }));
    expect(await within(first).findByText('<b>À écouter</b> mardi')).toBeInTheDocument();
    expect(within(first).getByText(/^Lou, /)).toBeInTheDocument();

    await userEvent.click(within(first).getByRole('button', { name: 'Supprimer' }));
    await userEvent.click(within(first).getByRole('button', { name: 'Confirmer la suppression de E-2026-0042' }));
    await screen.findByRole('heading', { level: 3, name: 'E-2026-0041 Radio Brique' });
    expect(screen.queryByText('E-2026-0042')).toBeNull();
    expect(api.requests.some((request) => request.method === 'DELETE')).toBe(true);
  });

  it('shows the list a page at a time: « Afficher les plus anciennes » adds the next page below', async () => {
    older = [proposal({ number: 'E-2026-0007', name: 'Vieille Onde' })];
    renderWithProviders(<Proposals role="admin" />);
    await screen.findByRole('heading', { level: 3, name: 'E-2026-0041 Radio Brique' });
    await userEvent.click(screen.getByRole('button', { name: 'Afficher les plus anciennes' }));
    await screen.findByRole('heading', { level: 3, name: 'E-2026-0007 Vieille Onde' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'E-2026-0042 Les Ondes Lentes',
      'E-2026-0041 Radio Brique',
      'E-2026-0007 Vieille Onde',
    ]);
    // At the oldest, nothing more to show.
    expect(screen.queryByRole('button', { name: 'Afficher les plus anciennes' })).toBeNull();
    expect(api.requests.map((request) => request.url)).toContain('/api/editor/proposals?apres=curseur-2');
  });

  it('opens on the proposal the team’s e-mail names (`?numero=`), first and focused, the list below', async () => {
    renderWithProviders(<Proposals role="admin" />, { route: '/admin?numero=D-2026-0007' });
    const named = await screen.findByRole('region', { name: 'Proposition demandée' });
    const heading = within(named).getByRole('heading', { level: 3, name: 'D-2026-0007 Cassette Verte' });
    // Focused by an effect, which may run just after the region is in the document.
    await waitFor(() => {
      expect(heading).toHaveFocus();
    });
    await screen.findByRole('heading', { level: 3, name: 'E-2026-0041 Radio Brique' });
    expect(screen.getAllByRole('heading', { level: 3 })[0]).toBe(heading);
  });

  it('reads no proposal for a `numero` that is not a number', async () => {
    renderWithProviders(<Proposals role="admin" />, { route: `/admin?numero=${encodeURIComponent('../../me')}` });
    await screen.findByRole('heading', { level: 3, name: 'E-2026-0041 Radio Brique' });
    expect(screen.queryByRole('region', { name: 'Proposition demandée' })).toBeNull();
    expect(api.requests.filter((request) => request.url.includes('me'))).toEqual([]);
  });

  it('writes « Répondre »’s address so that no character of the contact changes the link', () => {
    expect(replyHref(proposal({ email: 'a&b?c=d@example.org' }))).toMatch(
      /^mailto:a%26b%3Fc%3Dd@example\.org\?subject=/,
    );
  });
});
