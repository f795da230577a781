import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { supportAnswer, supportRedirectAnswer, supportReturnAnswer } from '@collectif/shared/schemas';
import { buildApi, listen, testConfig } from '../api/testing/fixtures';
import { XSRF } from '../api/testing/editors';

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  // Nothing configured: the demo's HelloAsso, served by the site itself.
  app = await buildApi({ config: testConfig() });
  base = await listen(app);
});

afterAll(async () => {
  await app.close();
});

const post = (path: string, body?: unknown, headers: Record<string, string> = XSRF) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** The return address's query, as the demo's payment page sends the visitor back with it. */
/** The cookie the browser got with its last gift. */
let donorCookie = '';

async function pay(choice: 'accepter' | 'refuser', amount: number, residence?: string): Promise<URL> {
  const made = await post('/api/support/don', { amount, ...(residence === undefined ? {} : { residence }) });
  expect(made.status).toBe(200);
  // The browser keeps the gift's cookie: its return page is told what the gift was.
  donorCookie = (made.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { redirectUrl } = v.parse(supportRedirectAnswer, await made.json());
  expect(redirectUrl).toMatch(/^\/api\/demo\/helloasso\/paiement\/\d+$/);
  const page = await (await fetch(`${base}${redirectUrl}`)).text();
  expect(page).toContain('Accepter');
  expect(page).toContain('Refuser');
  expect(page).toMatch(new RegExp(`${String(amount / 100)},00\\s€`));
  const back = await fetch(`${base}${redirectUrl}/${choice}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  expect(back.status).toBe(303);
  return new URL(back.headers.get('location') ?? '', base);
}

describe('the demo’s HelloAsso', () => {
  it('shows the page’s tiers and the year’s members with no setting and no network', async () => {
    const answer = v.parse(supportAnswer, await (await fetch(`${base}/api/support`)).json());
    expect(answer.helloasso).toBe(true);
    expect(answer.membership?.tiers.map((tier) => tier.label)).toEqual([
      'Adhésion solidaire',
      'Adhésion',
      'Adhésion de soutien',
    ]);
    expect(answer.progress).toMatchObject({ members: 142, stale: false });
    expect(answer.taxReceipt).toBe(false);
  });

  it('takes a gift from the press to « Merci ! »: the payment page accepted, the return checked', async () => {
    const back = await pay('accepter', 2500, 'axonberg');
    expect(back.pathname).toBe('/soutenir/merci');
    expect(back.searchParams.get('code')).toBe('succeeded');
    const checked = await fetch(`${base}/api/support/retour${back.search}`, { headers: { cookie: donorCookie } });
    expect(v.parse(supportReturnAnswer, await checked.json())).toEqual({
      state: 'paid',
      kind: 'don',
      amount: 2500,
      residence: 'axonberg',
    });
  });

  it('says a refused payment is refused', async () => {
    const back = await pay('refuser', 1000);
    expect(back.searchParams.get('code')).toBe('refused');
    const checked = await fetch(`${base}/api/support/retour${back.search}`, { headers: { cookie: donorCookie } });
    expect(await checked.json()).toEqual({ state: 'refused', kind: 'don' });
  });

  it('takes a membership on the form’s own page, and counts it in the year’s members', async () => {
    const chosen = await post('/api/support/adhesion', { tier: 102 });
    const { redirectUrl } = v.parse(supportRedirectAnswer, await chosen.json());
    const form = await (await fetch(`${base}${redirectUrl}`)).text();
    expect(form).toContain('Adhésion');
    expect(form).toContain('15,00');
    const back = await post('/api/demo/helloasso/formulaire/adhesion/102/accepter', undefined, {});
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location') ?? '', base);
    expect(location.pathname).toBe('/soutenir/merci');
    const checked = await fetch(`${base}/api/support/retour${location.search}`);
    expect(await checked.json()).toEqual({ state: 'paid', kind: 'adhesion', amount: 1500 });
  });

  it('writes the support page’s links into GET /api/radio', async () => {
    const radio = (await (await fetch(`${base}/api/radio`)).json()) as { support: unknown };
    expect(radio.support).toEqual({ page: '/soutenir', external: expect.stringMatching(/^https:\/\//) as unknown });
  });

  it('sends the visitor back to the site’s own pages only: another origin or a scheme is refused', async () => {
    const intents = '/api/demo/helloasso/v5/organizations/collectif-demo/checkout-intents';
    for (const returnUrl of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', '/\\evil.example']) {
      const made = await post(intents, { totalAmount: 1000, returnUrl, backUrl: '/soutenir' }, {});
      expect(made.status).toBe(400);
    }
    const back = await post(
      intents,
      { totalAmount: 1000, returnUrl: '/soutenir/merci', backUrl: 'javascript:alert(1)' },
      {},
    );
    expect(back.status).toBe(400);
    // A path of the site is taken, and the payment's « accepter » sends the visitor there.
    const made = await post(intents, { totalAmount: 1000, returnUrl: '/soutenir/merci' }, {});
    const { id } = (await made.json()) as { id: number };
    const accepted = await post(`/api/demo/helloasso/paiement/${String(id)}/accepter`, undefined, {});
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toMatch(/^\/soutenir\/merci\?checkoutIntentId=\d+&/);
  });
});

describe('the demo’s HelloAsso where the site is deployed for real', () => {
  it.each([
    ['an https origin', { SITE_ORIGIN: 'https://radio.example.org' }],
    ['teams’ deploys', { DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres' }],
  ])(
    'is off with %s: « Nous soutenir » is the external link, and nothing can be paid on the site',
    async (_name, env) => {
      const deployed = await buildApi({ config: testConfig({}, env) });
      try {
        const get = async (url: string) => deployed.inject({ method: 'GET', url });
        const radio = (await get('/api/radio')).json<{ support: unknown }>();
        expect(radio.support).toEqual({ page: '', external: expect.stringMatching(/^https:\/\//) as unknown });
        expect((await get('/api/support')).json()).toMatchObject({
          helloasso: false,
          membership: null,
          progress: null,
        });
        expect((await get('/api/demo/helloasso/paiement/1')).statusCode).toBe(404);
        const accept = await deployed.inject({ method: 'POST', url: '/api/demo/helloasso/paiement/1001/accepter' });
        expect(accept.statusCode).toBe(404);
        const gift = await deployed.inject({
          method: 'POST',
          url: '/api/support/don',
          headers: { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't' },
          payload: { amount: 1000 },
        });
        expect([gift.statusCode, gift.json<{ error: string }>().error]).toEqual([409, 'support_closed']);
      } finally {
        await deployed.close();
      }
    },
  );
});
