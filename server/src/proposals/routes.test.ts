import { readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { solveChallenge } from 'altcha-lib/v1';
import { declaredPages, HOSTILE_TEXTS, until } from '@collectif/shared/testing';
import type { PageRef } from '@collectif/shared';
import { siteConfig } from '@collectif/shared/config';
import type { ApiConfig } from '../api/env';
import { buildApi, listen, manualClock, testConfig } from '../api/testing/fixtures';
import { editorClient } from '../api/testing/editors';
import { readFields } from './fields';

// « Proposer une émission » and « Envoyer une démo » (docs/proposals.md): a proposal sent by the
// page's script and by the form without JavaScript, each spam rule, the e-mails received by a real
// SMTP server on the loopback and read back, a mail server away, the volunteers' rights, the hostile
// corpus kept as text, the 12 months' sweep and the proposer's deletion.

// Each post solves a real proof of work, as a browser would (up to 50,000 SHA-256): a few seconds a
// test on a loaded machine of two cores.
jest.setTimeout(30_000);

const TOKEN = 'jeton-admin-des-propositions-0123456789';
let app: FastifyInstance;
let base: string;
let config: ApiConfig;
let clock: ReturnType<typeof manualClock>;
const client = editorClient(() => ({ app, base }), TOKEN);

async function start(
  proposals: Partial<ApiConfig['proposals']> = {},
  pages?: () => Promise<readonly PageRef[]>,
): Promise<void> {
  const defaults = testConfig();
  config = testConfig({ adminToken: TOKEN, proposals: { ...defaults.proposals, perNetwork: 100, ...proposals } });
  clock = manualClock();
  // A mail server that never greets fails its try in half a second; `pages`: another table than the declared one.
  app = await buildApi(
    { config, now: clock.now },
    { proposals: { mailTimeoutMs: 500, ...(pages === undefined ? {} : { pages }) } },
  );
  base = await listen(app);
}

afterEach(async () => {
  await app.close();
});

/** A real SMTP server on the loopback: every message it receives, parsed. */
async function smtpServer(port = 0): Promise<{ port: number; mails: ParsedMail[]; close(): Promise<void> }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          callback();
        },
        (error: unknown) => {
          callback(error as Error);
        },
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(resolve);
      }),
  };
}

/** A port nobody listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    probe.close(() => {
      resolve();
    }),
  );
  return port;
}

const smtp = (port: number) => ({ host: '127.0.0.1', port, secure: false, from: 'radio@collectif.example.org' });

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
  startedAt: string;
}

async function challenge(): Promise<Challenge> {
  const answer = await fetch(`${base}/api/proposals/challenge`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as Challenge;
}

/** The widget's work: the number, and the payload it posts (base64 JSON). */
async function solved(made: Challenge): Promise<string> {
  const solution = await solveChallenge(made.challenge, made.salt, made.algorithm, made.maxnumber).promise;
  if (solution === null) throw new Error('défi non résolu');
  const payload = {
    algorithm: made.algorithm,
    challenge: made.challenge,
    number: solution.number,
    salt: made.salt,
    signature: made.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

const show = (extra: Record<string, unknown> = {}) => ({
  name: 'Les Ondes Lentes',
  makers: 'Camille et Sacha',
  style: 'ambient, field recordings',
  links: ['https://soundcloud.com/ondes-lentes/un', 'https://www.mixcloud.com/ondes-lentes/deux/'],
  when: 'un mardi sur deux, en soirée',
  email: 'camille@example.org',
  message: 'Nous aimerions une heure par mois.',
  ...extra,
});

/** A JSON post as the page's script sends it: a challenge solved, the form filled 5 s later. */
async function propose(kind: 'emission' | 'demo', fields: Record<string, unknown>, payload?: string) {
  const made = await challenge();
  const altcha = payload ?? (await solved(made));
  clock.advance(5_000);
  return fetch(`${base}/api/proposals/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, startedAt: made.startedAt, altcha }),
  });
}

/** A drawn number, as the server gives them (docs/proposals.md, « Numbers »). */
const SHOW_NUMBER = /^E-[0-9A-HJKMNP-TV-Z]{6}$/;
const DEMO_NUMBER = /^D-[0-9A-HJKMNP-TV-Z]{6}$/;

/** The form page's single-use token, as its cookie gives it, 5 s before the post. */
function formToken(): string {
  const token = app.proposals.spam.formToken();
  clock.advance(5_000);
  return token;
}

/** The form without JavaScript: urlencoded, its page's token in the cookie, no proof of work; never followed. */
function postForm(kind: 'emission' | 'demo', fields: Record<string, string>, token: string | null = formToken()) {
  return fetch(`${base}/api/proposals/${kind}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token === null ? {} : { cookie: `proposition=${token}` }),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

describe('a proposal sent by the page', () => {
  it('is stored, numbered, mailed to the collective and acknowledged to the proposer, in French', async () => {
    const server = await smtpServer();
    try {
      await start({ smtp: smtp(server.port) });
      const answer = await propose('emission', show({ makers: 'Camille\r\nBcc: espion@example.net' }));
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { fields: Record<string, string> }).fields).toEqual({
        makers: 'Qui la fait : un texte sur une ligne, sans caractère de contrôle.',
      });

      const sent = await propose('emission', show({ name: 'Les Ondes <b>Lentes</b> « Bcc: espion@example.net »' }));
      expect(sent.status).toBe(201);
      const { number, deleteUrl } = (await sent.json()) as { number: string; deleteUrl: string };
      expect(number).toMatch(SHOW_NUMBER);
      expect(deleteUrl).toBe(`/proposer-une-emission/supprimer?numero=${number}&jeton=${deleteUrl.slice(-32)}`);
      await app.proposals.flush();
      await until(() => server.mails.length === 2, { what: 'les deux courriels reçus' });
      const team = server.mails.find((mail) => mail.subject?.startsWith('Nouvelle') === true);
      const ack = server.mails.find((mail) => mail.subject?.includes('bien arrivée') === true);
      expect(team?.subject).toBe(
        `Nouvelle proposition d’émission ${number} : Les Ondes <b>Lentes</b> « Bcc: espion@example.net »`,
      );
      expect(team?.text).toContain('Qui la fait : Camille et Sacha');
      expect(team?.text).toContain('- https://soundcloud.com/ondes-lentes/un');
      expect(team?.replyTo?.text).toBe('camille@example.org');
      expect(ack?.text).toContain(`Son numéro : ${number}.`);
      // The acknowledgement goes to an address anyone may type: nothing the sender typed is in it.
      expect(ack?.text).not.toContain('Ondes');
      expect(ack?.subject).not.toContain('Ondes');
      expect(ack?.text).toContain(`Pour l’effacer dès maintenant : ${deleteUrl}`);
      expect(ack?.text).toContain('gardée douze mois au plus');
      // No header came from the public's text: no Bcc, one recipient each.
      for (const mail of server.mails) {
        expect(mail.headers.has('bcc')).toBe(false);
        expect(mail.to).toBeDefined();
      }
      expect((team?.to as { text: string }).text).toBe(config.proposals.to.emission);
      expect((ack?.to as { text: string }).text).toBe('camille@example.org');

      const read = await client.send(`/editor/proposals/${number}`);
      expect(await read.json()).toMatchObject({
        mail: 'on',
        proposal: { number, state: 'nouvelle', mails: { team: 'sent', ack: 'sent' } },
      });
      const metrics = await app.metrics.registry.metrics();
      expect(metrics).toMatch(/collectif_proposals_mails_total\{outcome="sent"\} 2/);
      expect(metrics).toMatch(/collectif_proposals_mails_waiting 0/);
      // The file: the server's user only.
      await app.proposals.store.backup();
      expect(statSync(join(config.contentDir, 'proposals.json')).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
    }
  });

  it('keeps the proposal while the mail server is away, and sends it once it answers', async () => {
    const port = await closedPort();
    await start({ smtp: smtp(port) });
    const sent = await propose('demo', { ...show(), when: undefined, name: 'Projet Nuit' });
    expect(sent.status).toBe(201);
    const { number } = (await sent.json()) as { number: string };
    expect(number).toMatch(DEMO_NUMBER);
    await app.proposals.flush();
    const waiting = await client.send(`/editor/proposals/${number}`);
    expect(await waiting.json()).toMatchObject({ proposal: { mails: { team: 'waiting', ack: 'waiting' } } });
    expect(await app.metrics.registry.metrics()).toMatch(/collectif_proposals_mails_total\{outcome="retry"\} 2/);
    expect(await app.metrics.registry.metrics()).toMatch(/collectif_proposals_mails_waiting 2/);

    const server = await smtpServer(port);
    try {
      // Not before its wait: nothing is tried.
      await app.proposals.flush();
      expect(server.mails).toHaveLength(0);
      clock.advance(31_000);
      await app.proposals.flush();
      await until(() => server.mails.length === 2, { what: 'les courriels envoyés au retour du serveur' });
      expect(server.mails.map((mail) => mail.subject).sort()).toEqual(
        [`${siteConfig.name} : votre démo ${number} est bien arrivée`, `Nouvelle démo ${number} : Projet Nuit`].sort(),
      );
    } finally {
      await server.close();
    }
  });

  it('keeps the proposal while the mail server is slow, and gives a mail up after its tries', async () => {
    // A server that takes the connection and never says a word.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      await start({ smtp: smtp((silent.address() as AddressInfo).port), mailTries: 2 });
      const sent = await propose('emission', show());
      expect(sent.status).toBe(201);
      const { number } = (await sent.json()) as { number: string };
      await app.proposals.flush();
      const read = async () =>
        ((await (await client.send(`/editor/proposals/${number}`)).json()) as { proposal: { mails: object } }).proposal
          .mails;
      expect(await read()).toEqual({ team: 'waiting', ack: 'waiting' });
      clock.advance(31_000);
      await app.proposals.flush();
      expect(await read()).toEqual({ team: 'failed', ack: 'failed' });
      expect(await app.metrics.registry.metrics()).toMatch(/collectif_proposals_mails_total\{outcome="failed"\} 2/);
      expect(await app.proposals.store.get(number)).not.toBeNull();
    } finally {
      silent.close();
    }
  });

  it('without a mail server, is kept and the editor says no e-mail is sent', async () => {
    await start();
    const sent = await propose('emission', show());
    expect(sent.status).toBe(201);
    const { number } = (await sent.json()) as { number: string };
    const list = await client.send('/editor/proposals');
    expect(await list.json()).toMatchObject({
      mail: 'off',
      proposals: [{ number, mails: { team: 'off', ack: 'off' } }],
    });
  });
});

describe('spam', () => {
  it('refuses a post without a challenge, with a forged one, and one used twice', async () => {
    await start();
    const without = await propose('emission', show(), '');
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({
      error: 'challenge',
      message: expect.stringContaining('anti-robot') as string,
    });

    const made = await challenge();
    const forged = Buffer.from(
      JSON.stringify({
        algorithm: 'SHA-256',
        challenge: made.challenge,
        number: 1,
        salt: made.salt,
        signature: 'f'.repeat(64),
      }),
    ).toString('base64');
    expect((await propose('emission', show(), forged)).status).toBe(400);

    const payload = await solved(await challenge());
    expect((await propose('emission', show(), payload)).status).toBe(201);
    const again = await propose('emission', show(), payload);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'challenge_used' });
  });

  it('refuses the hidden field filled, a form sent too fast, and a startedAt not ours', async () => {
    await start();
    expect(await (await propose('emission', show({ site: 'https://spam.example' }))).json()).toMatchObject({
      error: 'refused',
    });
    const made = await challenge();
    const altcha = await solved(made);
    clock.advance(1_000);
    const fast = await fetch(`${base}/api/proposals/emission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...show(), startedAt: made.startedAt, altcha }),
    });
    expect(await fast.json()).toMatchObject({
      error: 'too_fast',
      message: expect.stringMatching(/^Envoyé trop vite/) as string,
    });
    const forged = await fetch(`${base}/api/proposals/emission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...show(), startedAt: `abc.${String(clock.now() - 60_000)}`, altcha }),
    });
    expect(await forged.json()).toMatchObject({ error: 'expired_form' });
  });

  it('counts an IPv6 /64 as one network, and bounds the form without JavaScript more strictly', async () => {
    await start({ perNetworkForm: 1 });
    const { store } = app.proposals;
    expect(await store.network('2001:db8:1:2::1')).toEqual({ network: 1, wide: 1 });
    expect(await store.network('2001:db8:1:2:ffff::9')).toEqual({ network: 2, wide: 2 });
    // Another /64 of the same /48: a network of its own, the same wider one.
    expect(await store.network('2001:db8:1:3::1')).toEqual({ network: 1, wide: 3 });
    expect(await store.network('2001:db8:2:3::1')).toEqual({ network: 1, wide: 1 });
    expect(await store.network('192.0.2.1')).toEqual({ network: 1, wide: 1 });
    expect(await store.network('192.0.2.2')).toEqual({ network: 1, wide: 2 });

    const fields = { ...show(), links: show().links.join('\n') };
    const first = await postForm('emission', fields);
    expect(first.status).toBe(303);
    // No mail server here: the « Merci ! » page is told no e-mail leaves.
    expect(first.headers.get('location')).toMatch(
      /^\/proposer-une-emission\/merci\?numero=E-[0-9A-Z]{6}&courriel=non$/,
    );
    const second = await postForm('emission', fields);
    expect(second.status).toBe(303);
    const location = second.headers.get('location') ?? '';
    expect(location).toMatch(/^\/proposer-une-emission\?brouillon=[\w-]{22}$/);
    // The page reads the refused form back: what was typed, and why.
    const draft = await fetch(`${base}/api/proposals/drafts/${location.split('=')[1] ?? ''}`);
    expect(await draft.json()).toMatchObject({
      kind: 'emission',
      error: 'too_many',
      values: { name: 'Les Ondes Lentes', links: show().links.join('\n') },
    });
  });

  it('refuses a body over its bound before reading it whole (413)', async () => {
    await start();
    const answer = await fetch(`${base}/api/proposals/emission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...show(), message: 'x'.repeat(100_000) }),
    });
    expect(answer.status).toBe(413);
    const form = await postForm('demo', { message: 'x'.repeat(20_000) });
    expect(form.status).toBe(413);
  });
});

describe('the fields', () => {
  it('refuses links that are not https, and says each fault beside its field in French', async () => {
    await start();
    const answer = await propose('emission', {
      ...show(),
      links: ['http://soundcloud.com/a', 'javascript:alert(1)'],
      email: 'pas une adresse',
      name: '',
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'invalid',
      message: 'Certains champs sont à corriger.',
      fields: {
        name: 'Le nom de l’émission est obligatoire.',
        links: expect.stringMatching(/^Lien n° 1 : une adresse https/) as string,
        email: 'L’adresse e-mail n’a pas la forme nom@domaine.fr.',
      },
    });
    // The form without JavaScript: back to the page, what was typed kept with each fault.
    const form = await postForm('demo', { name: 'Projet', links: 'ftp://a.example' });
    const id = (form.headers.get('location') ?? '').split('brouillon=')[1] ?? '';
    const draft = (await (await fetch(`${base}/api/proposals/drafts/${id}`)).json()) as {
      fields: Record<string, string>;
    };
    expect(Object.keys(draft.fields).sort()).toEqual(['email', 'links', 'makers', 'style']);
  });

  it('keeps the hostile corpus as text in every field, and the editor reads it back as text', async () => {
    await start();
    for (const text of HOSTILE_TEXTS) {
      const sent = await propose(
        'emission',
        show({ name: text, makers: text, style: text.slice(0, 120), when: text, message: text }),
      );
      expect(sent.status).toBe(201);
    }
    const answer = await client.send('/editor/proposals?kind=emission');
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const { proposals } = (await answer.json()) as { proposals: Record<string, string>[] };
    expect(proposals).toHaveLength(HOSTILE_TEXTS.length);
    // Newest first: the last one sent leads.
    const seen = proposals.map((proposal) => proposal.name).reverse();
    expect(seen).toEqual(HOSTILE_TEXTS);
    for (const proposal of proposals) {
      expect(proposal.makers).toBe(proposal.name);
      expect(proposal.message).toBe(proposal.name);
      expect(proposal.when).toBe(proposal.name);
      expect(proposal).not.toHaveProperty('deleteToken');
    }
    // Bidirectional overrides and control characters are refused, not kept.
    const rtl = await propose('emission', show({ name: 'abc\u202Edef' }));
    expect(rtl.status).toBe(400);
    // Nine proofs of work solved here, as nine browsers would: longer than jest's default on a loaded machine.
  }, 60_000);
});

describe('the volunteers', () => {
  it('see what their role allows: another team’s proposal answers as one not there (404)', async () => {
    await start();
    const showAnswer = (await (await propose('emission', show())).json()) as { number: string };
    const demoAnswer = (await (await propose('demo', { ...show(), when: undefined, name: 'Démo' })).json()) as {
      number: string;
    };
    const label = await client.volunteer('label', 'lou');
    const programme = await client.volunteer('programmation', 'pat');
    const about = await client.volunteer('about', 'alix');

    // Another team's proposal answers as one that is not there: the same 404, the same words.
    const refused = await client.send(`/editor/proposals/${showAnswer.number}`, { as: label });
    const missing = await client.send('/editor/proposals/E-ZZZZZZ', { as: label });
    expect(refused.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await refused.json()).toEqual(await missing.json());
    const labelList = (await (await client.send('/editor/proposals', { as: label })).json()) as {
      proposals: { number: string }[];
    };
    expect(labelList.proposals.map((proposal) => proposal.number)).toEqual([demoAnswer.number]);
    expect((await client.send('/editor/proposals?kind=emission', { as: label })).status).toBe(403);
    expect((await client.send('/editor/proposals', { as: about })).status).toBe(403);
    expect((await client.send(`/editor/proposals/${demoAnswer.number}`, { as: programme })).status).toBe(404);

    // The programming team moves the show to « retenue » and signs a note.
    const moved = await client.send(`/editor/proposals/${showAnswer.number}/state`, {
      method: 'PUT',
      as: programme,
      body: { state: 'retenue' },
    });
    expect(await moved.json()).toMatchObject({
      proposal: {
        state: 'retenue',
        reply: {
          subject: expect.stringContaining(`votre proposition d’émission ${showAnswer.number}`) as string,
          text: expect.stringContaining('nous aimerions aller plus loin avec vous') as string,
        },
      },
    });
    const noted = await client.send(`/editor/proposals/${showAnswer.number}/notes`, {
      method: 'POST',
      as: programme,
      body: { text: 'Belle écoute <b>vraiment</b>.' },
    });
    expect(noted.status).toBe(201);
    expect(await noted.json()).toMatchObject({
      proposal: {
        notes: [{ text: 'Belle écoute <b>vraiment</b>.', author: 'pat', at: new Date(clock.now()).toISOString() }],
      },
    });
    const filtered = (await (await client.send('/editor/proposals?state=retenue')).json()) as { proposals: unknown[] };
    expect(filtered.proposals).toHaveLength(1);
    expect((await client.send('/editor/proposals', { as: {} })).status).toBe(401);
    expect((await client.send(`/editor/proposals/${showAnswer.number}`, { method: 'DELETE', as: label })).status).toBe(
      404,
    );
    expect((await client.send(`/editor/proposals/${showAnswer.number}`, { method: 'DELETE' })).status).toBe(204);
    expect((await client.send(`/editor/proposals/${showAnswer.number}`)).status).toBe(404);
  });
});

describe('the editor’s list, page by page', () => {
  interface Page {
    proposals: { number: string; kind: string; createdAt: string }[];
    next: string | null;
  }
  /** Every page of the list from `query`, following `next`; each page as it came. */
  async function pages(query: string): Promise<Page[]> {
    const read: Page[] = [];
    let next: string | null = null;
    do {
      const joiner = query === '' ? '?' : '&';
      const address: string = `/editor/proposals${query === '' ? '' : `?${query}`}${next === null ? '' : `${joiner}apres=${encodeURIComponent(next)}`}`;
      const answer = await client.send(address);
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as Page;
      read.push(page);
      ({ next } = page);
    } while (next !== null && read.length < 10);
    return read;
  }

  /** 65 proposals stored as a post would store them, two by two in the same millisecond; every fifth a demo. */
  async function fill(): Promise<string[]> {
    const numbers: string[] = [];
    for (let i = 0; i < 65; i += 1) {
      const kind = i % 5 === 4 ? 'demo' : 'emission';
      const read = readFields(kind, { ...show(), name: `Proposition ${String(i)}` });
      if (!read.ok) throw new Error('champs refusés');
      numbers.push((await app.proposals.submit(kind, read.fields)).number);
      if (i % 2 === 1) clock.advance(1_000);
    }
    return numbers;
  }

  it('gives 30, 30 then 5 proposals, newest first, each once, and says when there is no more', async () => {
    await start();
    const numbers = await fill();
    const read = await pages('');
    expect(read.map((page) => page.proposals.length)).toEqual([30, 30, 5]);
    expect(read.map((page) => page.next === null)).toEqual([false, false, true]);
    const all = read.flatMap((page) => page.proposals);
    // The newest first: the last made leads; within one millisecond, the higher number.
    const order = (a: Page['proposals'][number], b: Page['proposals'][number]) =>
      b.createdAt.localeCompare(a.createdAt) || b.number.localeCompare(a.number);
    expect(all).toEqual([...all].sort(order));
    expect(all.map((proposal) => proposal.number).sort()).toEqual([...numbers].sort());
  });

  it('filters before paging', async () => {
    await start();
    await fill();
    const shows = await pages('kind=emission');
    expect(shows.map((page) => page.proposals.length)).toEqual([30, 22]);
    expect(shows.flatMap((page) => page.proposals).every((proposal) => proposal.kind === 'emission')).toBe(true);
    const demos = await pages('kind=demo&state=nouvelle');
    expect(demos.map((page) => page.proposals.length)).toEqual([13]);
    expect(demos[0]?.next).toBeNull();
  });

  it('refuses a cursor it did not give, or malformed, in French (400)', async () => {
    await start();
    await fill();
    const [first] = await pages('');
    const next = first?.next ?? '';
    const [signature, position] = next.split('.');
    // Another position (the first proposal's), with the signature of the real one.
    const moved = `${signature ?? ''}.${Buffer.from(JSON.stringify({ createdAt: '2026-03-04T18:00:00.000Z', number: 'E-2026-0001' })).toString('base64url')}`;
    for (const forged of [moved, `${'A'.repeat(43)}.${position ?? ''}`, 'pas-un-curseur', 'x'.repeat(300)]) {
      const answer = await client.send(`/editor/proposals?apres=${encodeURIComponent(forged)}`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        error: 'bad_request',
        message: expect.stringMatching(/^(Cette suite de la liste|Paramètre « apres »)/) as string,
      });
    }
  });
});

describe('what is kept, and for how long', () => {
  it('deletes a proposal after 12 months, or at once by the proposer’s link', async () => {
    await start();
    const first = (await (await propose('emission', show())).json()) as { number: string; deleteUrl: string };
    clock.advance(200 * 24 * 3600_000);
    const second = (await (await propose('emission', show())).json()) as { number: string; deleteUrl: string };
    expect(second.number).toMatch(SHOW_NUMBER);
    expect(second.number).not.toBe(first.number);
    clock.advance(170 * 24 * 3600_000);
    expect(await app.proposals.sweep()).toBe(1);
    expect(await app.proposals.store.get(first.number)).toBeNull();
    expect(await app.proposals.store.get(second.number)).not.toBeNull();

    const token = new URL(second.deleteUrl, base).searchParams.get('jeton') ?? '';
    const wrong = await fetch(`${base}/api/proposals/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ number: second.number, token: 'x'.repeat(32) }),
    });
    expect(wrong.status).toBe(404);
    const form = await fetch(`${base}/api/proposals/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ number: second.number, token }).toString(),
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(
      `/proposer-une-emission/supprimer?numero=${second.number}&etat=supprimee`,
    );
    expect(await app.proposals.store.get(second.number)).toBeNull();
  });
});

describe('whether e-mail is on, told to the proposer’s pages', () => {
  /** One proposal by the page's script and one by the form: what each answer says. */
  async function both() {
    const sent = await propose('emission', show());
    const form = await postForm('demo', {
      ...show(),
      email: 'sacha@example.org',
      when: '',
      links: show().links.join('\n'),
    });
    return { json: (await sent.json()) as unknown, location: form.headers.get('location') };
  }

  it('says `mail: off` and `courriel=non` without a mail server (the demo)', async () => {
    await start();
    const { json, location } = await both();
    expect(json).toEqual({
      number: expect.stringMatching(SHOW_NUMBER) as string,
      deleteUrl: expect.any(String) as string,
      mail: 'off',
    });
    expect(location).toMatch(/^\/label\/envoyer-une-demo\/merci\?numero=D-[0-9A-Z]{6}&courriel=non$/);
  });

  it('says `mail: on`, and nothing in the form’s redirect, with one', async () => {
    const server = await smtpServer();
    try {
      await start({ smtp: smtp(server.port) });
      const { json, location } = await both();
      expect(json).toEqual({
        number: expect.stringMatching(SHOW_NUMBER) as string,
        deleteUrl: expect.any(String) as string,
        mail: 'on',
      });
      expect(location).toMatch(/^\/label\/envoyer-une-demo\/merci\?numero=D-[0-9A-Z]{6}$/);
    } finally {
      await server.close();
    }
  });
});

describe('the addresses, from the site’s page table', () => {
  /** The declared table, the radio's proposal page (and its two below) moved to `proposer`. */
  const moved = (): PageRef[] =>
    declaredPages().map((page) =>
      page.module === 'ProposeShowPage'
        ? { ...page, path: page.path.replace('proposer-une-emission', 'proposer') }
        : page,
    );

  it('follow the radio’s page where it moved, and lead the team to the admin page', async () => {
    const server = await smtpServer();
    try {
      await start({ smtp: smtp(server.port) }, () => Promise.resolve(moved()));
      const sent = await propose('emission', show());
      const { number, deleteUrl } = (await sent.json()) as { number: string; deleteUrl: string };
      expect(deleteUrl).toMatch(new RegExp(`^/proposer/supprimer\\?numero=${number}&jeton=[\\w-]{32}$`));
      const form = await postForm('emission', {
        ...show(),
        email: 'sacha@example.org',
        links: show().links.join('\n'),
      });
      expect(form.headers.get('location')).toMatch(/^\/proposer\/merci\?numero=E-[0-9A-Z]{6}$/);
      const refused = await postForm('emission', { name: 'x' });
      expect(refused.headers.get('location')).toMatch(/^\/proposer\?brouillon=[\w-]{22}$/);
      const deleted = await fetch(`${base}/api/proposals/delete`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ number, token: 'x'.repeat(32) }).toString(),
        redirect: 'manual',
      });
      expect(deleted.headers.get('location')).toBe(`/proposer/supprimer?numero=${number}&etat=introuvable`);

      await app.proposals.flush();
      await until(() => server.mails.length === 4, { what: 'les courriels des deux propositions' });
      const team = server.mails.find((mail) => mail.subject?.startsWith(`Nouvelle proposition d’émission ${number}`));
      // The editor's admin page (the demo's editor is on the site's origin), opened on the proposal.
      expect(team?.text).toContain(`« Propositions » : /admin?numero=${number}\n`);
      const ack = server.mails.find((mail) => mail.subject?.includes(`${number} est bien arrivée`) === true);
      expect(ack?.text).toContain(`Pour l’effacer dès maintenant : ${deleteUrl}\n`);
    } finally {
      await server.close();
    }
  });

  it('fall back to the site’s root when the table has no such page (its part not deployed)', async () => {
    const server = await smtpServer();
    try {
      const without = () =>
        Promise.resolve(
          declaredPages().filter((page) => page.module !== 'ProposeShowPage' && page.module !== 'AdminPage'),
        );
      await start({ smtp: smtp(server.port) }, without);
      const sent = await propose('emission', show());
      const { number, deleteUrl } = (await sent.json()) as { number: string; deleteUrl: string };
      expect(deleteUrl).toBe('/');
      const form = await postForm('emission', {
        ...show(),
        email: 'sacha@example.org',
        links: show().links.join('\n'),
      });
      expect(form.headers.get('location')).toBe('/');
      await app.proposals.flush();
      await until(() => server.mails.length === 4, { what: 'les courriels des deux propositions' });
      const team = server.mails.find((mail) => mail.subject?.startsWith(`Nouvelle proposition d’émission ${number}`));
      expect(team?.text).toContain('« Propositions » : /\n');
    } finally {
      await server.close();
    }
  });
});

describe('forms only from the site, and each token once (docs/proposals.md, « Spam »)', () => {
  it('refuses a post from another site’s page, by its Origin or its Sec-Fetch-Site, and gives it no CORS', async () => {
    await start();
    const fields = { ...show(), links: show().links.join('\n') };
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: base, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const answer = await fetch(`${base}/api/proposals/emission`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `proposition=${formToken()}`,
          ...headers,
        },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({
        error: 'cross_site',
        message: expect.stringMatching(
          /^Envoi refusé : ce formulaire ne peut être envoyé que depuis les pages du site/,
        ) as string,
      });
    }
    // The same post from the site's own page (its Origin, `same-origin`) is taken.
    const own = await fetch(`${base}/api/proposals/emission`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `proposition=${formToken()}`,
        origin: base,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toMatch(/\/merci\?/);
    // The challenge: no CORS for another origin (any page could fetch a fresh one).
    const asked = await fetch(`${base}/api/proposals/challenge`, { headers: { origin: 'https://evil.example' } });
    expect(asked.status).toBe(403);
    expect((await fetch(`${base}/api/proposals/challenge`)).headers.get('access-control-allow-origin')).toBeNull();
    // The rest of the API still answers partner sites.
    const other = await fetch(`${base}/api/islive`, { headers: { origin: 'https://partenaire.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('takes the form without JavaScript only with its page’s token, once, and a startedAt once', async () => {
    await start();
    const fields = { ...show(), links: show().links.join('\n') };
    const draftOf = async (answer: Response) => {
      const id = (answer.headers.get('location') ?? '').split('brouillon=')[1] ?? '';
      return (await (await fetch(`${base}/api/proposals/drafts/${id}`)).json()) as { error: string };
    };
    // No token (a page of another site posting, or a robot that never read the page): back to the form.
    const without = await postForm('emission', fields, null);
    expect(without.status).toBe(303);
    expect(await draftOf(without)).toMatchObject({ error: 'expired_form' });
    // A token not ours.
    expect(await draftOf(await postForm('emission', fields, `${'a'.repeat(43)}.${'b'.repeat(30)}`))).toMatchObject({
      error: 'expired_form',
    });
    // Sent at once after the page: too fast.
    const fresh = app.proposals.spam.formToken();
    expect(await draftOf(await postForm('emission', fields, fresh))).toMatchObject({ error: 'too_fast' });
    // One token, one proposal: the second post of the same token is refused.
    const token = formToken();
    expect((await postForm('emission', fields, token)).headers.get('location')).toMatch(/\/merci\?/);
    expect(await draftOf(await postForm('emission', fields, token))).toMatchObject({ error: 'form_used' });
    // A day later the token has expired.
    const old = formToken();
    clock.advance(25 * 3600_000);
    expect(await draftOf(await postForm('emission', fields, old))).toMatchObject({ error: 'expired_form' });

    // Two visitors who begin in the same instant get two startedAt, each good for their proposal.
    const [one, two] = [await challenge(), await challenge()];
    expect(one.startedAt).not.toBe(two.startedAt);
    clock.advance(5_000);
    for (const made of [one, two]) {
      const answer = await fetch(`${base}/api/proposals/emission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...show(), startedAt: made.startedAt, altcha: await solved(made) }),
      });
      expect(answer.status).toBe(201);
    }

    // With JavaScript: one startedAt makes one proposal, whatever the challenges.
    const made = await challenge();
    clock.advance(5_000);
    const post = async () =>
      fetch(`${base}/api/proposals/emission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...show(), startedAt: made.startedAt, altcha: await solved(await challenge()) }),
      });
    expect((await post()).status).toBe(201);
    const again = await post();
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'form_used' });
  });

  it('bounds a wider network (an IPv6 /48, an IPv4 /24) beside each network', async () => {
    await start({ perWideNetwork: 1 });
    expect((await propose('emission', show())).status).toBe(201);
    const second = await propose('emission', show());
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ error: 'too_many' });
  });
});

describe('the acknowledgement nobody can aim (docs/proposals.md, « E-mail »)', () => {
  it('leaves at most once a day for an address, keyed by a hash of it, and says so to the proposer', async () => {
    const server = await smtpServer();
    try {
      await start({ smtp: smtp(server.port), perNetworkForm: 100 });
      const first = await propose('emission', show());
      expect(await first.json()).toMatchObject({ mail: 'on' });
      // The same address again, written otherwise: no second acknowledgement today.
      const second = await propose('demo', show({ when: undefined, email: ' Camille@Example.org ' }));
      const { number, mail } = (await second.json()) as { number: string; mail: string };
      expect(mail).toBe('skipped');
      const form = await postForm('emission', { ...show(), links: show().links.join('\n') });
      expect(form.headers.get('location')).toMatch(/\/merci\?numero=E-[0-9A-Z]{6}&courriel=deja$/);
      await app.proposals.flush();
      await until(() => server.mails.length === 4, { what: 'trois courriels à l’équipe, un accusé' });
      const acks = server.mails.filter((mail) => mail.subject?.includes('bien arrivée') === true);
      expect(acks).toHaveLength(1);
      const read = await client.send(`/editor/proposals/${number}`);
      expect(await read.json()).toMatchObject({ proposal: { mails: { team: 'sent', ack: 'skipped' } } });
      // The address is never kept in clear beside the proposals: the count is a keyed hash's.
      await app.proposals.store.backup();
      const file = readFileSync(join(config.contentDir, 'proposals.json'), 'utf8');
      expect(file.match(/camille@example\.org/gi)?.length).toBe(3);
      // The next day, one again.
      clock.advance(24 * 3600_000);
      expect(await (await propose('emission', show())).json()).toMatchObject({ mail: 'on' });
    } finally {
      await server.close();
    }
  });
});

describe('the proposals at their memory’s bound (docs/proposals.md, « What is kept »)', () => {
  it('refuses new ones in French with Retry-After, and loses none kept', async () => {
    // Room for one proposal of this size (about 2 KB each by `recordCost`).
    await start({ storeBytes: 3_000, perNetworkForm: 100 });
    const kept = (await (await propose('emission', show())).json()) as { number: string };
    const full = await propose('emission', show({ name: 'Une de trop' }));
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('3600');
    expect(await full.json()).toMatchObject({
      error: 'full',
      message: 'Le site ne peut plus recevoir de propositions pour le moment : réessayez plus tard, ou écrivez-nous.',
    });
    const form = await postForm('emission', { ...show(), links: show().links.join('\n') });
    expect(form.headers.get('location')).toMatch(/\?brouillon=/);
    expect(await app.proposals.store.get(kept.number)).not.toBeNull();
    expect(await app.proposals.store.list()).toHaveLength(1);
  });
});
