import { createHash } from 'node:crypto';
import { webcrypto } from 'node:crypto';
import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { HOSTILE_TEXTS, json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { ProposalPage } from './ProposalPage';

// « Proposer une émission » and « Envoyer une démo » against a fake /api on loopback
// (docs/proposals.md, « The pages »). The whole way, the server's own rules and the form without
// JavaScript in Chromium: e2e/tests/proposals.spec.ts.

const SALT = 'abcdef0123456789?expires=9999999999';
/** A challenge whose number is 37, as altcha-lib makes them (small, for the test). */
const challenge = {
  algorithm: 'SHA-256',
  challenge: createHash('sha256').update(`${SALT}37`).digest('hex'),
  maxnumber: 100,
  salt: SALT,
  signature: 'signé',
  startedAt: 'jeton.1764000000000',
};

let api: FakeServer;
let proposal: { status: number; body: unknown }[];
let draft: { status: number; body: unknown };
let started = 0;

beforeAll(() => {
  // jsdom's crypto may lack SubtleCrypto: Node's, the one the browser's stands for.
  if (!('subtle' in globalThis.crypto)) {
    Object.defineProperty(globalThis.crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
  }
});

beforeEach(async () => {
  started = 0;
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  proposal = [{ status: 201, body: { number: 'E-2026-0042', deleteUrl: 'https://example.org/x' } }];
  draft = { status: 404, body: { error: 'not_found', message: 'Ce formulaire a expiré : remplissez-le de nouveau.' } };
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' },
    routes: {
      // Each challenge with its own signed instant, as the server makes them.
      '/api/proposals/challenge': (request, response) => {
        started += 1;
        json({ ...challenge, startedAt: `jeton.${String(started)}` })(request, response);
      },
      '/api/proposals/emission': (request, response) => {
        const next = proposal.length > 1 ? proposal.shift() : proposal[0];
        json(next?.body, next?.status)(request, response);
      },
      '/api/proposals/demo': json({ number: 'D-2026-0007', deleteUrl: 'https://example.org/x' }, 201),
      '/api/proposals/drafts/brouillon-123': (request, response) => json(draft.body, draft.status)(request, response),
    },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await api.close();
});

const posts = () =>
  api.requests
    .filter((request) => request.method === 'POST')
    .map((request) => [request.path, JSON.parse(request.body) as Record<string, unknown>] as const);

async function renderForm(kind: 'emission' | 'demo' = 'emission', route = '/proposer-une-emission') {
  const rendered = renderWithProviders(<ProposalPage kind={kind} />, { route });
  await screen.findByRole('button', { name: kind === 'emission' ? 'Envoyer la proposition' : 'Envoyer la démo' });
  return rendered;
}

async function fill() {
  await userEvent.type(screen.getByLabelText('Nom de l’émission'), 'Les Ondes Lentes');
  await userEvent.type(screen.getByLabelText('Qui la fait'), 'Camille et Sacha');
  await userEvent.type(screen.getByLabelText('Le style, en quelques mots'), 'ambient');
  await userEvent.type(
    screen.getByLabelText('Liens pour écouter'),
    'https://soundcloud.com/ondes/un{enter}https://www.mixcloud.com/ondes/deux/',
  );
  await userEvent.type(screen.getByLabelText('À quel rythme, et quand pourriez-vous jouer ?'), 'le mardi soir');
  await userEvent.type(screen.getByLabelText('Votre adresse e-mail'), 'camille@example.org');
}

/** « Merci ! » shown, and focused by its effect (which may run just after it is in the document). */
async function thanksFocused(): Promise<void> {
  const heading = await screen.findByRole('heading', { level: 1, name: 'Merci !' });
  await waitFor(() => {
    expect(heading).toHaveFocus();
  });
}

describe('/proposer-une-emission', () => {
  it('is a real form post, with what happens next and the shows’ address', async () => {
    await renderForm();
    expect(screen.getByRole('heading', { level: 1, name: 'Proposer une émission' })).toBeInTheDocument();
    expect(
      screen.getByText('Nous écoutons chaque proposition ; vous recevez une réponse sous trois semaines.'),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'emissions@example.org' })[0]).toHaveAttribute(
      'href',
      'mailto:emissions@example.org',
    );
    const form = screen.getByRole('button', { name: 'Envoyer la proposition' }).closest('form');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/proposals/emission');
    // Nothing of one visitor's in the page: the form without JavaScript carries its page's cookie
    // token, and no challenge is asked before the form is focused. The hidden field a person never fills.
    expect(form?.querySelector('input[name="startedAt"]')).toBeNull();
    expect(api.requests.some((request) => request.path === '/api/proposals/challenge')).toBe(false);
    const trap = form?.querySelector('input[name="site"]');
    expect(trap).toHaveValue('');
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap?.closest('[aria-hidden="true"]')).not.toBeNull();
    for (const [label, name] of [
      ['Nom de l’émission', 'name'],
      ['Qui la fait', 'makers'],
      ['Le style, en quelques mots', 'style'],
      ['Liens pour écouter', 'links'],
      ['À quel rythme, et quand pourriez-vous jouer ?', 'when'],
      ['Votre adresse e-mail', 'email'],
      ['Un mot pour l’équipe (facultatif)', 'message'],
    ] as const) {
      expect(screen.getByLabelText(label)).toHaveAttribute('name', name);
    }
    expect(screen.getByLabelText('Liens pour écouter')).toHaveAccessibleDescription(
      /De 2 à 5 adresses https:\/\/ .*une par ligne\./,
    );
  });

  it('sends the form as JSON with the proof of work, and says « Merci ! » with the number', async () => {
    await renderForm();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer la proposition' }));
    await thanksFocused();
    expect(screen.getByText('E-2026-0042')).toBeInTheDocument();
    const [[path, body]] = posts() as [readonly [string, Record<string, unknown>]];
    expect(path).toBe('/api/proposals/emission');
    expect(body).toMatchObject({
      name: 'Les Ondes Lentes',
      makers: 'Camille et Sacha',
      style: 'ambient',
      links: ['https://soundcloud.com/ondes/un', 'https://www.mixcloud.com/ondes/deux/'],
      when: 'le mardi soir',
      email: 'camille@example.org',
      message: '',
      startedAt: 'jeton.1',
      site: '',
    });
    const payload = JSON.parse(atob(String(body.altcha))) as Record<string, unknown>;
    expect(payload).toMatchObject({ number: 37, salt: SALT, signature: 'signé', challenge: challenge.challenge });
  });

  it('on a site that sends no e-mail, « Merci ! » promises none and names the address to write to', async () => {
    proposal = [{ status: 201, body: { number: 'E-2026-0043', deleteUrl: 'https://example.org/x', mail: 'off' } }];
    await renderForm();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer la proposition' }));
    await thanksFocused();
    expect(screen.getByText('E-2026-0043')).toBeInTheDocument();
    expect(screen.queryByText(/e-mail de confirmation vous est envoyé/)).toBeNull();
    expect(screen.getByText(/Ce site n’envoie pas d’e-mail/)).toHaveTextContent(
      'Ce site n’envoie pas d’e-mail : pour retirer votre proposition, écrivez à emissions@',
    );
  });

  it('says each fault beside its field, and moves the focus to the first', async () => {
    proposal = [
      {
        status: 400,
        body: {
          error: 'invalid',
          message: 'Certains champs sont à corriger.',
          fields: {
            email: 'L’adresse e-mail n’a pas la forme nom@domaine.fr.',
            links: 'Lien n° 2 : une adresse https://… complète est attendue.',
          },
        },
      },
    ];
    await renderForm();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer la proposition' }));
    const links = screen.getByLabelText('Liens pour écouter');
    expect(await screen.findByText('Certains champs sont à corriger.')).toBeInTheDocument();
    // The focus is moved by an effect, which may run just after the message is in the document.
    await waitFor(() => {
      expect(links).toHaveFocus();
    });
    expect(links).toHaveAttribute('aria-invalid', 'true');
    expect(links).toHaveAccessibleDescription(/Lien n° 2 : une adresse https:\/\/… complète est attendue\./);
    const email = screen.getByLabelText('Votre adresse e-mail');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(/L’adresse e-mail n’a pas la forme nom@domaine\.fr\./);
    expect(screen.getByLabelText('Nom de l’émission')).not.toHaveAttribute('aria-invalid');
    // What was typed stays.
    expect(screen.getByLabelText('Nom de l’émission')).toHaveValue('Les Ondes Lentes');
  });

  it('asks for a new challenge once when the last one was used', async () => {
    proposal = [
      { status: 400, body: { error: 'challenge_used', message: 'Cette vérification anti-robot a déjà servi.' } },
      { status: 201, body: { number: 'E-2026-0043', deleteUrl: 'https://example.org/x' } },
    ];
    await renderForm();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer la proposition' }));
    expect(await screen.findByText('E-2026-0043')).toBeInTheDocument();
    expect(posts()).toHaveLength(2);
    // One proposal, one start: the retry takes a new challenge but keeps the first `startedAt`.
    expect(posts().map(([, body]) => body.startedAt)).toEqual(['jeton.1', 'jeton.1']);
  });

  it('shows a form refused without JavaScript again, the hostile corpus as text', async () => {
    draft = {
      status: 200,
      body: {
        kind: 'emission',
        values: {
          name: HOSTILE_TEXTS[0],
          makers: HOSTILE_TEXTS[1],
          style: HOSTILE_TEXTS[5],
          links: HOSTILE_TEXTS.join('\n'),
          when: HOSTILE_TEXTS[2],
          email: 'pas une adresse',
          message: HOSTILE_TEXTS.join('\n'),
        },
        error: 'invalid',
        message: 'Certains champs sont à corriger.',
        fields: {
          links: `Lien n° 1 : ${HOSTILE_TEXTS[0]}`,
          email: 'L’adresse e-mail n’a pas la forme nom@domaine.fr.',
        },
      },
    };
    const { container } = await renderForm('emission', '/proposer-une-emission?brouillon=brouillon-123');
    await screen.findByText('Certains champs sont à corriger.');
    const links = screen.getByLabelText('Liens pour écouter');
    expect(links).toHaveValue(HOSTILE_TEXTS.join('\n'));
    expect(screen.getByLabelText('Nom de l’émission')).toHaveValue(HOSTILE_TEXTS[0]);
    expect(screen.getByLabelText('Un mot pour l’équipe (facultatif)')).toHaveValue(HOSTILE_TEXTS.join('\n'));
    // The fault's text is text: no element made of it.
    expect(screen.getByText(`Lien n° 1 : ${HOSTILE_TEXTS[0]}`)).toBeInTheDocument();
    expect(container.querySelector('script, img, a[href^="javascript"]')).toBeNull();
    await waitFor(() => {
      expect(links).toHaveFocus();
    });
    expect(screen.getByText('Certains champs sont à corriger.')).toBeInTheDocument();
  });

  it('says a draft past its 15 minutes expired, and offers the empty form', async () => {
    await renderForm('emission', '/proposer-une-emission?brouillon=brouillon-123');
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce formulaire a expiré : remplissez-le de nouveau.');
    expect(screen.getByLabelText('Nom de l’émission')).toHaveValue('');
  });
});

describe('/label/envoyer-une-demo', () => {
  it('asks the same shape without the show’s schedule, with the label’s address', async () => {
    await renderForm('demo', '/label/envoyer-une-demo');
    expect(screen.getByRole('heading', { level: 1, name: 'Envoyer une démo' })).toBeInTheDocument();
    expect(screen.getByLabelText('Nom du projet')).toHaveAttribute('name', 'name');
    expect(screen.getByLabelText('Liens vers la démo')).toBeInTheDocument();
    expect(screen.queryByLabelText('À quel rythme, et quand pourriez-vous jouer ?')).toBeNull();
    expect(screen.getAllByRole('link', { name: 'demos@example.org' })[0]).toHaveAttribute(
      'href',
      'mailto:demos@example.org',
    );
    expect(screen.getByRole('button', { name: 'Envoyer la démo' }).closest('form')).toHaveAttribute(
      'action',
      '/api/proposals/demo',
    );
  });
});

describe('<page>/merci and <page>/supprimer', () => {
  it('says « Merci ! » and the number to quote', () => {
    renderWithProviders(<ProposalPage kind="demo" />, { route: '/label/envoyer-une-demo/merci?numero=D-2026-0007' });
    expect(screen.getByRole('heading', { level: 1, name: 'Merci !' })).toBeInTheDocument();
    expect(screen.getByText('D-2026-0007')).toBeInTheDocument();
    expect(screen.getByText(/L’équipe du label écoute chaque démo/)).toBeInTheDocument();
    expect(screen.getByText(/Un e-mail de confirmation vous est envoyé/)).toBeInTheDocument();
  });

  it('after the form without JavaScript on a site without e-mail (`courriel=non`), promises no e-mail', () => {
    renderWithProviders(<ProposalPage kind="demo" />, {
      route: '/label/envoyer-une-demo/merci?numero=D-2026-0007&courriel=non',
    });
    expect(screen.getByText('D-2026-0007')).toBeInTheDocument();
    expect(screen.queryByText(/Un e-mail de confirmation/)).toBeNull();
    const write = screen.getByText(/Ce site n’envoie pas d’e-mail/);
    expect(within(write).getByRole('link')).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });

  it('says no confirmation comes when the address had its one of the day (`courriel=deja`)', async () => {
    proposal = [{ status: 201, body: { number: 'E-7K3Q9M', deleteUrl: 'https://example.org/x', mail: 'skipped' } }];
    await renderForm();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer la proposition' }));
    expect(await screen.findByText('E-7K3Q9M')).toBeInTheDocument();
    expect(screen.queryByText(/Un e-mail de confirmation vous est envoyé/)).toBeNull();
    const write = screen.getByText(/Un e-mail de confirmation est déjà parti vers cette adresse aujourd’hui/);
    expect(within(write).getByRole('link')).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });

  it('shows no number the address forged', () => {
    renderWithProviders(<ProposalPage kind="emission" />, {
      route: `/proposer-une-emission/merci?numero=${encodeURIComponent(HOSTILE_TEXTS[0] ?? '')}`,
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Merci !' })).toBeInTheDocument();
    expect(screen.queryByText(/script/)).toBeNull();
  });

  it('deletes with a button that posts, never with the link itself', () => {
    renderWithProviders(<ProposalPage kind="emission" />, {
      route: '/proposer-une-emission/supprimer?numero=E-2026-0042&jeton=abc',
    });
    const button = screen.getByRole('button', { name: 'Supprimer ma proposition' });
    const form = button.closest('form');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/proposals/delete');
    expect(within(form as HTMLElement).getByDisplayValue('E-2026-0042')).toHaveAttribute('name', 'number');
    expect(within(form as HTMLElement).getByDisplayValue('abc')).toHaveAttribute('name', 'token');
  });

  it('says the proposal was deleted', () => {
    renderWithProviders(<ProposalPage kind="emission" />, {
      route: '/proposer-une-emission/supprimer?numero=E-2026-0042&etat=supprimee',
    });
    expect(screen.getByRole('status')).toHaveTextContent('La proposition E-2026-0042 est supprimée');
  });
});
