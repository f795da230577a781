import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { supportAnswer, supportFiguresAnswer, supportReturnAnswer } from '@collectif/shared/schemas';
import { buildApi, listen, manualClock, testConfig } from '../api/testing/fixtures';
import { editorClient, XSRF } from '../api/testing/editors';
import { requestForLog } from '../app/app';
import { exampleOrder, FAKE_ACCOUNT, startFakeHelloAsso, type FakeHelloAsso } from './testing/fake-helloasso';

const TOKEN = 'jeton-admin-du-test-support';

let fake: FakeHelloAsso;
let app: FastifyInstance;
let base: string;
let clock: ReturnType<typeof manualClock>;
let contentDir = '';

async function start(): Promise<void> {
  clock = manualClock();
  const config = testConfig({
    adminToken: TOKEN,
    support: { helloasso: { ...FAKE_ACCOUNT, apiUrl: fake.url }, demo: false, taxReceipt: true },
  });
  contentDir = config.contentDir;
  app = await buildApi({ config, now: clock.now });
  base = await listen(app);
}

beforeEach(async () => {
  fake = await startFakeHelloAsso();
  await start();
});

afterEach(async () => {
  await app.close();
  await fake.close();
});

const client = editorClient(() => ({ app, base }), TOKEN);

function post(path: string, body: unknown, headers: Record<string, string> = XSRF) {
  return fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function support() {
  const response = await fetch(`${base}/api/support`);
  const text = await response.text();
  expect(text).not.toContain(FAKE_ACCOUNT.clientSecret);
  return v.parse(supportAnswer, JSON.parse(text));
}

async function figures(as?: object, query = '') {
  const response = await client.send(`/editor/figures/support${query}`, as === undefined ? {} : { as });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function residenceFigures(id: string) {
  const { body } = await figures();
  return v.parse(supportFiguresAnswer, body).residences.find((row) => row.id === id);
}

/** The browser's cookie of its last gift (POST /api/support/don sets it for the return page). */
let donorCookie = '';

/** A gift of `amount` cents for `residence`, through the site: the intent's id and metadata. */
async function give(amount: number, residence?: string) {
  const response = await post('/support/don', { amount, ...(residence === undefined ? {} : { residence }) });
  expect(response.status).toBe(200);
  donorCookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const intent = fake.intents.at(-1) ?? {};
  const id = Number(/checkout\/(\d+)$/.exec(((await response.json()) as { redirectUrl: string }).redirectUrl)?.[1]);
  return { id, metadata: intent.metadata as { reference: string; residence?: string } };
}

/** A notification to the address set in HelloAsso's account, with its key. */
function notify(body: unknown, headers: Record<string, string> = {}, key = FAKE_ACCOUNT.notificationKey) {
  return post(`/support/notifications/${key}`, body, headers);
}

describe('GET /api/support', () => {
  it('gives the membership form’s tiers, the year’s members and the gifts’ bounds', async () => {
    const answer = await support();
    expect(answer.helloasso).toBe(true);
    expect(answer.taxReceipt).toBe(true);
    expect(answer.membership?.formUrl).toBe(
      `https://www.helloasso.com/associations/${FAKE_ACCOUNT.organization}/adhesions/${FAKE_ACCOUNT.membershipForm}`,
    );
    // The free-price tier has no amount to show: it is left to the form's own page.
    expect(answer.membership?.tiers).toEqual([
      { id: 1201, label: 'Adhésion simple', price: 1500, description: 'Une voix à l’AG.' },
      { id: 1202, label: 'Adhésion de soutien', price: 3000 },
    ]);
    expect(answer.progress).toMatchObject({ year: 2026, members: 142, stale: false });
    expect(answer.donation).toMatchObject({ min: 100, max: 100_000 });
    expect(answer.donation.monthlyUrl).toContain(`/formulaires/${FAKE_ACCOUNT.donationForm}`);
  });

  it('says the figures are stale, with when they were read, when HelloAsso fails after a good read', async () => {
    const first = await support();
    fake.fail('error');
    clock.advance(11 * 60_000);
    const later = await support();
    expect(later.progress).toEqual({ ...first.progress, stale: true });
    expect(later.membership).toEqual(first.membership);
  });

  it.each([
    ['refuses the token', 'refused'],
    ['answers 500', 'error'],
    ['answers slowly', 'slow'],
    ['sends garbage', 'garbage'],
  ] as const)('has no membership nor figures, and keeps the external link, when HelloAsso %s', async (_what, how) => {
    fake.fail(how);
    const answer = await support();
    expect(answer.membership).toBeNull();
    expect(answer.progress).toBeNull();
    expect(answer.external).toMatch(/^https:\/\//);
  });
});

describe('POST /api/support/don', () => {
  it('creates an intent of the amount in cents, naming the residence in its metadata', async () => {
    const response = await post('/support/don', { amount: 2550, residence: 'axonberg' });
    expect(response.status).toBe(200);
    const { redirectUrl } = (await response.json()) as { redirectUrl: string };
    expect(redirectUrl).toMatch(
      /^https:\/\/www\.helloasso-sandbox\.com\/associations\/collectif-garonne\/checkout\/\d+$/,
    );
    expect(fake.intents).toHaveLength(1);
    expect(fake.intents[0]).toMatchObject({
      totalAmount: 2550,
      initialAmount: 2550,
      containsDonation: true,
      itemName: expect.stringContaining('Axonberg') as unknown,
      returnUrl: expect.stringMatching(/\/soutenir\/merci$/) as unknown,
      backUrl: expect.stringMatching(/\/soutenir$/) as unknown,
      metadata: { kind: 'don', residence: 'axonberg', reference: expect.any(String) as unknown },
    });
  });

  it.each([
    [{ amount: 50 }, /au moins 1 €/],
    [{ amount: 100_001 }, /au plus 1000 €/],
    [{ amount: '15' }, /nombre de centimes/],
    [{ amount: '15,50' }, /nombre de centimes/],
    [{ amount: 15.5 }, /centimes entiers/],
    [{ amount: Number.NaN }, /nombre de centimes/],
    [{}, /.+/],
    [{ amount: 1500, monthly: true }, /mensuel/],
    [{ amount: 1500, residence: 'inconnue' }, /Résidence inconnue/],
    [{ amount: 1500, residence: '<script>' }, /Résidence inconnue/],
    [{ amount: 1500, currency: 'USD' }, /Champ inconnu/],
  ])('refuses %j in French and creates nothing at HelloAsso', async (body, message) => {
    const response = await post('/support/don', body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { message: string };
    expect(answer.message).toMatch(message);
    expect(fake.intents).toHaveLength(0);
  });

  it('refuses a write without XSRF, and too many intents from one address in a minute', async () => {
    const bare = await post('/support/don', { amount: 1500 }, {});
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { message: string }).message).toMatch(/XSRF/);
    for (let i = 0; i < 5; i += 1) expect((await post('/support/don', { amount: 1500 })).status).toBe(200);
    const limited = await post('/support/don', { amount: 1500 });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { message: string }).message).toMatch(/Trop de requêtes/);
    expect(fake.intents).toHaveLength(5);
  });

  it.each([
    ['refuses the token', 'refused', 502, /refusé les identifiants/],
    ['answers 500', 'error', 502, /HelloAsso/],
    ['answers slowly', 'slow', 504, /pas répondu à temps/],
    ['sends garbage', 'garbage', 502, /illisible/],
  ] as const)('says so in French when HelloAsso %s', async (_what, how, status, message) => {
    fake.fail(how);
    const response = await post('/support/don', { amount: 1500 });
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(text).toMatch(message);
    expect(text).not.toContain(FAKE_ACCOUNT.clientSecret);
  });
});

describe('the token', () => {
  it('is asked once, kept, and asked again before it expires', async () => {
    fake.tokenLife = 120;
    await give(1500);
    await give(1500);
    expect(fake.tokens()).toBe(1);
    // 108 s: renewed 12 s (10 % of its life) before it expires.
    clock.advance(109_000);
    await give(1500);
    expect(fake.tokens()).toBe(2);
  });

  it('never leaves the server: the secret is in no answer', async () => {
    for (const path of ['/support', '/radio', '/content/support']) {
      const response = await fetch(`${base}/api${path}`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).not.toContain(FAKE_ACCOUNT.clientSecret);
      expect(text).not.toContain(FAKE_ACCOUNT.clientId);
    }
    expect(fake.upstream.requests.filter((request) => request.body.includes(FAKE_ACCOUNT.clientSecret))).toEqual(
      fake.upstream.requests.filter((request) => request.path === '/oauth2/token'),
    );
  });
});

describe('POST /api/support/adhesion', () => {
  it('leads to the membership form’s own page for a tier of the form, and refuses another', async () => {
    const response = await post('/support/adhesion', { tier: 1202 });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { redirectUrl: string }).redirectUrl).toBe(
      `https://www.helloasso.com/associations/${FAKE_ACCOUNT.organization}/adhesions/${FAKE_ACCOUNT.membershipForm}`,
    );
    for (const tier of [1203, 9999, '1202']) {
      const refused = await post('/support/adhesion', { tier });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toMatch(/Tarif inconnu|n’existe pas/);
    }
  });
});

describe('GET /api/support/retour', () => {
  /** The return page's check, from the donor's browser (its cookie), or from another (`cookie: ''`). */
  async function back(query: string, cookie = donorCookie) {
    const response = await fetch(`${base}/api/support/retour?${query}`, { headers: cookie === '' ? {} : { cookie } });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('tells a gift’s amount and residence to the browser that made it only: another gets nothing of it', async () => {
    const { id } = await give(4200, 'axonberg');
    fake.pay(id, exampleOrder(22709, { amount: 4200 }));
    const stranger = await back(`checkoutIntentId=${String(id)}`, '');
    expect(stranger.status).toBe(404);
    expect(JSON.stringify(stranger.body)).not.toMatch(/4200|axonberg/);
    const forged = await back(
      `checkoutIntentId=${String(id)}`,
      `${donorCookie.split('=')[0] ?? ''}=${String(id)}.faux`,
    );
    expect(forged.status).toBe(404);
    const donor = await back(`checkoutIntentId=${String(id)}`);
    expect(donor.body).toEqual({ state: 'paid', kind: 'don', amount: 4200, residence: 'axonberg' });
  });

  it('says « paid » only once HelloAsso says the intent’s order is authorized, never from the query', async () => {
    const { id } = await give(2500, 'axonberg');
    const before = await back(`checkoutIntentId=${String(id)}&code=succeeded&orderId=22707`);
    expect(v.parse(supportReturnAnswer, before.body)).toEqual({ state: 'unfinished', kind: 'don' });
    fake.pay(id, exampleOrder(22707, { amount: 2500 }));
    const after = await back(`checkoutIntentId=${String(id)}&code=succeeded&orderId=22707`);
    expect(v.parse(supportReturnAnswer, after.body)).toEqual({
      state: 'paid',
      kind: 'don',
      amount: 2500,
      residence: 'axonberg',
    });
    // Counted once, however often the page is read.
    await back(`checkoutIntentId=${String(id)}&code=succeeded&orderId=22707`);
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 1, sum: 2500 });
  });

  it('says « refused » when HelloAsso refused the payment', async () => {
    const { id } = await give(2500);
    const refused = await back(`checkoutIntentId=${String(id)}&code=refused`);
    expect(refused.body).toEqual({ state: 'refused', kind: 'don' });
    fake.pay(id, exampleOrder(22708, { amount: 2500, state: 'Refused' }));
    const read = await back(`checkoutIntentId=${String(id)}&code=succeeded&orderId=22708`);
    expect(read.body).toEqual({ state: 'unfinished', kind: 'don' });
  });

  it('answers 429 past 30 checks a minute from one address (each asks HelloAsso)', async () => {
    const { id } = await give(2500);
    const checks = await Promise.all(
      Array.from({ length: 31 }, () =>
        fetch(`${base}/api/support/retour?checkoutIntentId=${String(id)}`, { headers: { cookie: donorCookie } }),
      ),
    );
    expect(checks.filter((response) => response.status === 200)).toHaveLength(30);
    expect(checks.filter((response) => response.status === 429)).toHaveLength(1);
  });

  it('refuses an address that is not HelloAsso’s, and an intent HelloAsso does not know', async () => {
    expect((await back('checkoutIntentId=abc')).status).toBe(400);
    expect((await back('checkoutIntentId=123456')).status).toBe(404);
  });
});

describe('POST /api/support/notifications', () => {
  const orderNotice = (id: number, metadata?: unknown) => ({
    data: exampleOrder(id),
    eventType: 'Order',
    ...(metadata === undefined ? {} : { metadata }),
  });
  const paymentNotice = (orderId: number) => ({
    data: {
      order: { id: orderId, formSlug: 'default', formType: 'Checkout' },
      id: orderId + 1,
      amount: 2000,
      state: 'Authorized',
    },
    eventType: 'Payment',
  });

  it('refuses, before asking HelloAsso anything, a notification to an address without its key', async () => {
    fake.order(exampleOrder(22790, { amount: 2000 }));
    const asked = fake.upstream.count('/v5/orders/22790');
    const wrong = [`${FAKE_ACCOUNT.notificationKey.slice(0, -1)}x`, 'x'.repeat(201), encodeURIComponent('clé devinée')];
    for (const key of wrong) {
      const response = await notify(orderNotice(22790), {}, key);
      expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([
        key.length > 200 ? 400 : 404,
        key.length > 200 ? 'bad_request' : 'not_found',
      ]);
    }
    // The old address, without a key, is no route at all.
    expect((await post('/support/notifications', orderNotice(22790))).status).toBe(404);
    expect(fake.upstream.count('/v5/orders/22790')).toBe(asked);
  });

  it('leaves the key out of the log’s request lines', () => {
    const url = `/api/support/notifications/${FAKE_ACCOUNT.notificationKey}?a=1`;
    expect(requestForLog({ method: 'POST', host: 'radio.example.org', ip: '203.0.113.9', url })).toEqual({
      method: 'POST',
      host: 'radio.example.org',
      url: '/api/support/notifications/…?a=1',
      remoteAddress: '203.0.113.9',
    });
  });

  it('takes no XSRF token, and ignores a forged notification: the order is read back first', async () => {
    // HelloAsso does not know this order: whatever the notification says, nothing is counted.
    const forged = await notify(orderNotice(555, { reference: 'aaaaaaaaaaaa', residence: 'axonberg' }));
    expect(forged.status).toBe(204);
    expect(fake.upstream.count('/v5/orders/555')).toBe(1);
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 0, sum: 0 });
  });

  it('counts a verified gift for the residence its intent named, once, and takes a refund back', async () => {
    const { metadata } = await give(2000, 'axonberg');
    fake.order(exampleOrder(22707, { amount: 2000 }));
    expect((await notify(orderNotice(22707, metadata))).status).toBe(204);
    expect((await notify(paymentNotice(22707))).status).toBe(204);
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 1, sum: 2000 });
    fake.order(exampleOrder(22707, { amount: 2000, state: 'Refunded' }));
    expect((await notify(paymentNotice(22707))).status).toBe(204);
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 0, sum: 0 });
  });

  it('writes nothing for a notification that changes nothing: the counts’ file is left as it was', async () => {
    const { metadata } = await give(2000, 'axonberg');
    fake.order(exampleOrder(22711, { amount: 2000 }));
    await notify(orderNotice(22711, metadata));
    const file = join(contentDir, 'support-counts.json');
    // Nanoseconds: a rewrite, even within the same millisecond, moves them.
    const written = statSync(file, { bigint: true }).mtimeNs;
    const text = readFileSync(file, 'utf8');
    clock.advance(5000);
    for (let again = 0; again < 3; again += 1) expect((await notify(orderNotice(22711, metadata))).status).toBe(204);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(written);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('takes an intent’s residence only for an order of the intent’s amount: another order cannot borrow it', async () => {
    const { metadata } = await give(2000, 'axonberg');
    // An order of the organisation for another amount, notified with that intent's reference.
    fake.order(exampleOrder(22712, { amount: 500 }));
    await notify(orderNotice(22712, metadata));
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 0, sum: 0 });
  });

  it('counts no checkout the site did not make: one without a reference, or with another’s', async () => {
    const file = join(contentDir, 'support-counts.json');
    for (const [id, metadata] of [
      [22720, undefined],
      [22721, { reference: 'pas-une-des-notres' }],
    ] as const) {
      fake.order(exampleOrder(id, { amount: 3000 }));
      expect((await notify(orderNotice(id, metadata))).status).toBe(204);
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain(`"${String(id)}"`);
    }
  });

  it('believes no residence the site did not give an intent', async () => {
    fake.order(exampleOrder(22709, { amount: 2000 }));
    await notify(orderNotice(22709, { reference: 'pas-une-des-notres', residence: 'axonberg' }));
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 0, sum: 0 });
  });

  it('ignores another organisation’s order, another form’s, and a payment not authorized', async () => {
    const { metadata } = await give(2000, 'axonberg');
    fake.order(exampleOrder(30001, { organizationSlug: 'bordeauxchess' }));
    fake.order(exampleOrder(30002, { formType: 'Event', formSlug: 'concert' }));
    fake.order(exampleOrder(30003, { formType: 'Membership', formSlug: 'adhesion-2025' }));
    fake.order(exampleOrder(30004, { state: 'Refused' }));
    for (const id of [30001, 30002, 30003, 30004]) expect((await notify(orderNotice(id, metadata))).status).toBe(204);
    expect(await residenceFigures('axonberg')).toEqual({ id: 'axonberg', donations: 0, sum: 0 });
  });

  it('answers 429 past 120 a minute from one address', async () => {
    const sent = await Promise.all(Array.from({ length: 121 }, () => notify({ eventType: 'Form', data: {} })));
    expect(sent.filter((response) => response.status === 204)).toHaveLength(120);
    const limited = sent.find((response) => response.status === 429);
    expect(((await limited?.json()) as { message: string }).message).toMatch(/Trop de requêtes/);
  });

  it('refuses a body past its bound, and ignores garbage', async () => {
    const huge = await notify({ eventType: 'Order', data: { id: 1, filler: 'x'.repeat(70 * 1024) } });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { message: string }).message).toMatch(/Requête invalide/);
    expect(fake.upstream.count('/v5/orders/1')).toBe(0);
    for (const garbage of ['{', '"texte"', { eventType: 'Order', data: { id: -4 } }, { eventType: 'Form', data: {} }]) {
      expect([204, 400]).toContain((await notify(garbage)).status);
    }
  });
});

describe('GET /api/editor/figures/support', () => {
  it('gives a resident their residence’s count without sums, and refuses them another’s', async () => {
    fake.order(exampleOrder(22707, { amount: 2000 }));
    const { metadata } = await give(2000, 'axonberg');
    await notify({ data: exampleOrder(22707), eventType: 'Order', metadata });
    const resident = await client.volunteer('residence', 'resident-axonberg', 'axonberg');
    const own = await figures(resident);
    expect(own.status).toBe(200);
    expect(v.parse(supportFiguresAnswer, own.body)).toEqual({
      year: 2026,
      members: 142,
      residences: [{ id: 'axonberg', donations: 1 }],
    });
    expect((await figures(resident, '?residence=la-brume')).status).toBe(403);
    const admin = v.parse(supportFiguresAnswer, (await figures()).body);
    expect(admin.residences.find((row) => row.id === 'axonberg')).toEqual({ id: 'axonberg', donations: 1, sum: 2000 });
    expect((await fetch(`${base}/api/editor/figures/support`)).status).toBe(401);
  });

  it('gives the goal an admin set, and HelloAsso turned off leads the links outside', async () => {
    const saved = await client.send('/content/support', {
      method: 'PUT',
      body: { data: { helloasso: false, goal: 200 } },
    });
    expect(saved.status).toBe(200);
    expect(v.parse(supportFiguresAnswer, (await figures()).body).goal).toBe(200);
    const radio = (await (await fetch(`${base}/api/radio`)).json()) as { support: { page: string; external: string } };
    expect(radio.support.page).toBe('');
    expect(radio.support.external).toMatch(/^https:\/\//);
    const closed = await post('/support/don', { amount: 1500 });
    expect(closed.status).toBe(409);
    expect(fake.intents).toHaveLength(0);
    const refused = await client.send('/content/support', {
      method: 'PUT',
      body: { data: { helloasso: true, goal: 0 } },
    });
    expect(refused.status).toBe(400);
  });
});
