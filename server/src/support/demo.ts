import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import { escapeHtml } from '@collectif/shared/seo';
import { SUPPORT_PAGE } from '@collectif/shared/config';
import type { UpstreamRequest, UpstreamResponse } from '../upstream/fetch';
import type { Transport } from './helloasso';

/**
 * The demo's HelloAsso (docs/support.md, « The demo »): with no HELLOASSO_* setting, the site serves
 * a small HelloAsso itself, under /api/demo/helloasso: its token endpoint, the two forms, the count
 * of the membership form's orders, checkout intents and orders, in the shapes of HelloAsso's
 * documented examples, and a « paiement » page whose « Accepter » and « Refuser » return to
 * /soutenir/merci with HelloAsso's query. The site's client reaches it through `app.inject`, so the
 * whole path works with no network. Kept in memory: a restart forgets the demo's payments.
 */

export const DEMO_PREFIX = '/demo/helloasso';
/** The demo's address of the API, as HELLOASSO_API_URL would be. */
export const DEMO_API_URL = `/api${DEMO_PREFIX}`;
export const DEMO_ACCOUNT = {
  clientId: 'demo',
  clientSecret: 'demo-secret',
  organization: 'collectif-demo',
  membershipForm: 'adhesion',
  donationForm: 'dons',
  apiUrl: DEMO_API_URL,
  // The demo sends no notification: a key nobody knows, drawn for this process.
  notificationKey: randomBytes(24).toString('base64url'),
};
/** The members the demo's year starts with. */
const DEMO_MEMBERS = 142;
const DEMO_TOKEN_S = 1800;
const INTENTS_MAX = 1000;

const DEMO_TIERS = [
  { id: 101, label: 'Adhésion solidaire', description: 'Pour les étudiant·es et les petits budgets.', price: 500 },
  { id: 102, label: 'Adhésion', description: 'Une voix à l’assemblée générale de l’association.', price: 1500 },
  { id: 103, label: 'Adhésion de soutien', description: 'L’adhésion, et un coup de pouce à la radio.', price: 3000 },
];

interface DemoOrder {
  id: number;
  date: string;
  formSlug: string;
  formType: string;
  organizationSlug: string;
  organizationName: string;
  amount: { total: number; vat: number; discount: number };
  payments: { id: number; amount: number; state: string; paymentMeans: string; date: string }[];
}

interface DemoIntent {
  id: number;
  amount: number;
  itemName: string;
  returnUrl: string;
  backUrl: string;
  metadata: unknown;
  order?: DemoOrder;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;

const euros = (cents: number) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** A return address with HelloAsso's query appended (only a path of the site, or ours). */
function withQuery(url: string, query: Record<string, string>): string {
  const target = new URL(url, 'http://demo.invalid');
  for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
  return url.startsWith('/') ? `${target.pathname}${target.search}` : target.href;
}

export const demoHelloAsso: FastifyPluginCallback<{ now: () => number }> = (app, { now }, done) => {
  const intents = new Map<number, DemoIntent>();
  const orders = new Map<number, DemoOrder>();
  let next = 1000;
  let members = DEMO_MEMBERS;
  const noXsrf = { config: { xsrf: false } };
  // The payment page's buttons post an empty form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, parsed) => {
    parsed(null, body);
  });

  const makeOrder = (formType: string, formSlug: string, amount: number): DemoOrder => {
    next += 1;
    const date = new Date(now()).toISOString();
    const order: DemoOrder = {
      id: next,
      date,
      formSlug,
      formType,
      organizationSlug: DEMO_ACCOUNT.organization,
      organizationName: 'Collectif (démonstration)',
      amount: { total: amount, vat: 0, discount: 0 },
      payments: [{ id: next + 500_000, amount, state: 'Authorized', paymentMeans: 'Card', date }],
    };
    orders.set(order.id, order);
    return order;
  };

  app.post(`${DEMO_PREFIX}/oauth2/token`, noXsrf, async (_request, reply) =>
    reply.send({ access_token: `demo-${String(now())}`, token_type: 'bearer', expires_in: DEMO_TOKEN_S }),
  );

  const formPath = `${DEMO_PREFIX}/v5/organizations/:org/forms/:type/:slug`;
  app.get<{ Params: { type: string; slug: string } }>(`${formPath}/public`, async (request, reply) => {
    const { type, slug } = request.params;
    if (type === 'Membership' && slug === DEMO_ACCOUNT.membershipForm) {
      return reply.send({
        organizationSlug: DEMO_ACCOUNT.organization,
        formSlug: slug,
        formType: type,
        title: 'Adhésion à l’association',
        url: `${DEMO_API_URL}/formulaire/adhesion`,
        tiers: DEMO_TIERS.map((tier) => ({ ...tier, tierType: 'Membership', vatRate: 0 })),
      });
    }
    if (type === 'Donation' && slug === DEMO_ACCOUNT.donationForm) {
      return reply.send({
        organizationSlug: DEMO_ACCOUNT.organization,
        formSlug: slug,
        formType: type,
        title: 'Faire un don',
        url: `${DEMO_API_URL}/formulaire/don`,
        tiers: [],
      });
    }
    return reply.code(404).send({ message: 'form not found' });
  });
  app.get(`${formPath}/orders`, async (_request, reply) =>
    reply.send({ data: [], pagination: { pageSize: 1, totalCount: members, pageIndex: 1, totalPages: members } }),
  );

  app.post<{ Body: Record<string, unknown> }>(
    `${DEMO_PREFIX}/v5/organizations/:org/checkout-intents`,
    noXsrf,
    async (request, reply) => {
      const body = request.body;
      const amount = Number(body.totalAmount);
      if (!Number.isInteger(amount) || amount < 100) {
        return reply.code(400).send({ errors: [{ code: 'ArgumentInvalid', message: 'totalAmount' }] });
      }
      // The demo sends the visitor back to the site's own pages only: a path of the site, never
      // another origin or a scheme (javascript:, //other.example).
      const returnUrl = sitePath(body.returnUrl);
      const backUrl = body.backUrl === undefined ? SUPPORT_PAGE : sitePath(body.backUrl);
      if (returnUrl === null || backUrl === null) {
        return reply.code(400).send({ errors: [{ code: 'ArgumentInvalid', message: 'returnUrl, backUrl' }] });
      }
      if (intents.size >= INTENTS_MAX) intents.delete(intents.keys().next().value ?? 0);
      next += 1;
      const intent: DemoIntent = {
        id: next,
        amount,
        itemName: typeof body.itemName === 'string' ? body.itemName : 'Don',
        returnUrl,
        backUrl,
        metadata: body.metadata,
      };
      intents.set(intent.id, intent);
      return reply.send({ id: intent.id, redirectUrl: `${DEMO_API_URL}/paiement/${String(intent.id)}` });
    },
  );
  app.get<{ Params: { id: string } }>(
    `${DEMO_PREFIX}/v5/organizations/:org/checkout-intents/:id`,
    async (request, reply) => {
      const intent = intents.get(Number(request.params.id));
      if (intent === undefined) return reply.code(404).send({ message: 'not found' });
      return reply.send({
        id: intent.id,
        redirectUrl: `${DEMO_API_URL}/paiement/${String(intent.id)}`,
        metadata: intent.metadata,
        ...(intent.order === undefined ? {} : { order: intent.order }),
      });
    },
  );
  app.get<{ Params: { id: string } }>(`${DEMO_PREFIX}/v5/orders/:id`, async (request, reply) => {
    const order = orders.get(Number(request.params.id));
    return order === undefined ? reply.code(404).send({ message: 'not found' }) : reply.send(order);
  });

  // The pages a visitor sees: the checkout's payment, and the membership form's.
  const html = 'text/html; charset=utf-8';
  app.get<{ Params: { id: string } }>(`${DEMO_PREFIX}/paiement/:id`, async (request, reply) => {
    const intent = intents.get(Number(request.params.id));
    reply.header('Cache-Control', 'no-store').type(html);
    if (intent === undefined) {
      return reply.code(404).send(page('Paiement introuvable', '<h1>Ce paiement n’existe pas (ou plus).</h1>'));
    }
    const action = `${DEMO_API_URL}/paiement/${String(intent.id)}`;
    return reply.send(
      page(
        'Paiement — HelloAsso (démonstration)',
        `<h1>Paiement (démonstration de HelloAsso)</h1>
<p>${escapeHtml(intent.itemName)} : <strong>${escapeHtml(euros(intent.amount))}</strong></p>
<p>Aucune carte n’est demandée : cette page remplace celle de HelloAsso.</p>
<form method="post" action="${escapeHtml(`${action}/accepter`)}"><button type="submit">Accepter</button></form>
<form method="post" action="${escapeHtml(`${action}/refuser`)}"><button type="submit">Refuser</button></form>
<p><a href="${escapeHtml(intent.backUrl)}">Retour</a></p>`,
      ),
    );
  });
  app.post<{ Params: { id: string; choice: string } }>(
    `${DEMO_PREFIX}/paiement/:id/:choice`,
    noXsrf,
    async (request, reply) => {
      const intent = intents.get(Number(request.params.id));
      if (intent === undefined || !['accepter', 'refuser'].includes(request.params.choice)) {
        return reply.code(404).type(html).send(page('Paiement introuvable', '<h1>Ce paiement n’existe pas.</h1>'));
      }
      if (request.params.choice === 'refuser') {
        return reply.redirect(
          withQuery(intent.returnUrl, { checkoutIntentId: String(intent.id), code: 'refused' }),
          303,
        );
      }
      intent.order ??= makeOrder('Checkout', 'default', intent.amount);
      return reply.redirect(
        withQuery(intent.returnUrl, {
          checkoutIntentId: String(intent.id),
          code: 'succeeded',
          orderId: String(intent.order.id),
        }),
        303,
      );
    },
  );
  app.get<{ Params: { form: string }; Querystring: { tier?: string } }>(
    `${DEMO_PREFIX}/formulaire/:form`,
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store').type(html);
      if (request.params.form === 'don') {
        return reply.send(
          page(
            'Faire un don — HelloAsso (démonstration)',
            `<h1>Don mensuel (démonstration de HelloAsso)</h1><p>Le formulaire de dons de l’association s’ouvrirait ici.</p><p><a href="${SUPPORT_PAGE}">Retour</a></p>`,
          ),
        );
      }
      const tier = DEMO_TIERS.find((each) => String(each.id) === request.query.tier) ?? DEMO_TIERS[1];
      if (request.params.form !== 'adhesion' || tier === undefined) {
        return reply.code(404).send(page('Formulaire introuvable', '<h1>Ce formulaire n’existe pas.</h1>'));
      }
      const action = `${DEMO_API_URL}/formulaire/adhesion/${String(tier.id)}`;
      return reply.send(
        page(
          'Adhésion — HelloAsso (démonstration)',
          `<h1>Adhésion (démonstration de HelloAsso)</h1>
<p>${escapeHtml(tier.label)} : <strong>${escapeHtml(euros(tier.price))}</strong></p>
<p>Aucune carte n’est demandée : cette page remplace celle de HelloAsso.</p>
<form method="post" action="${escapeHtml(`${action}/accepter`)}"><button type="submit">Accepter</button></form>
<form method="post" action="${escapeHtml(`${action}/refuser`)}"><button type="submit">Refuser</button></form>
<p><a href="${SUPPORT_PAGE}">Retour</a></p>`,
        ),
      );
    },
  );
  app.post<{ Params: { tier: string; choice: string } }>(
    `${DEMO_PREFIX}/formulaire/adhesion/:tier/:choice`,
    noXsrf,
    async (request, reply) => {
      const tier = DEMO_TIERS.find((each) => String(each.id) === request.params.tier);
      if (tier === undefined || request.params.choice !== 'accepter') return reply.redirect(SUPPORT_PAGE, 303);
      const order = makeOrder('Membership', DEMO_ACCOUNT.membershipForm, tier.price);
      members += 1;
      return reply.redirect(withQuery(`${SUPPORT_PAGE}/merci`, { orderId: String(order.id), code: 'succeeded' }), 303);
    },
  );
  done();
};

/** A path of the site (`/…`, not `//…`, no backslash, no control or space), else null. */
function sitePath(value: unknown): string | null {
  return typeof value === 'string' && value.length <= 2048 && /^\/(?![/\\])[^\s\\]*$/.test(value) ? value : null;
}

/** The client's way to the demo's HelloAsso: the site's own routes, without the network. */
export function injectTransport(app: FastifyInstance): Transport {
  return async (request: UpstreamRequest): Promise<UpstreamResponse> => {
    const answer = await app.inject({
      method: request.method ?? 'GET',
      url: request.url,
      ...(request.headers === undefined ? {} : { headers: request.headers }),
      ...(request.body === undefined ? {} : { payload: request.body }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    return { status: answer.statusCode, headers, body: answer.rawPayload };
  };
}
