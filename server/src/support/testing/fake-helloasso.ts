import { json, silent, startFakeUpstream, type FakeHandler, type FakeUpstream } from '../../api/testing/fake-upstream';

/**
 * A HelloAsso on loopback for the tests (docs/support.md): its token endpoint with an expiry, the
 * two forms, the membership form's orders, checkout intents and orders, in the shapes of
 * HelloAsso's documented examples (dev.helloasso.com: a form's public page, an order, a checkout
 * intent). A test sets what each answers, or breaks one (refused, 500, silent, garbage).
 */

export const FAKE_ACCOUNT = {
  clientId: 'client-du-collectif',
  clientSecret: 'secret-du-collectif-1234567890',
  organization: 'collectif-garonne',
  membershipForm: 'adhesion-2026',
  donationForm: 'dons',
  notificationKey: 'cle-des-notifications-0123456789',
};

export const FAKE_TIERS = [
  {
    id: 1201,
    label: 'Adhésion simple',
    description: 'Une voix à l’AG.',
    price: 1500,
    tierType: 'Membership',
    vatRate: 0,
  },
  { id: 1202, label: 'Adhésion de soutien', description: '', price: 3000, tierType: 'Membership', vatRate: 0 },
  // Free price: no fixed amount, not offered by the site.
  { id: 1203, label: 'Prix libre', price: null, tierType: 'Membership', vatRate: 0 },
];

/** An order as HelloAsso's documented example has it, for our organisation unless told. */
export function exampleOrder(
  id: number,
  {
    amount = 2000,
    state = 'Authorized',
    formType = 'Checkout',
    formSlug = 'default',
    organizationSlug = FAKE_ACCOUNT.organization,
    date = '2026-03-04T19:11:15.7442115+01:00',
  }: {
    amount?: number;
    state?: string;
    formType?: string;
    formSlug?: string;
    organizationSlug?: string;
    date?: string;
  } = {},
) {
  return {
    payer: {
      email: 'hugo.dubois@example.org',
      country: 'FRA',
      firstName: 'Hugo',
      lastName: 'Dubois',
    },
    items: [
      {
        payments: [{ id: id + 1, shareAmount: amount }],
        priceCategory: 'Fixed',
        tierDescription: '',
        tierId: 127,
        id,
        amount,
        type: formType === 'Membership' ? 'Membership' : 'Donation',
        initialAmount: amount,
        state: 'Processed',
      },
    ],
    payments: [
      {
        items: [{ id, shareAmount: amount, shareItemAmount: amount }],
        cashOutState: 'Transfered',
        paymentReceiptUrl: `https://www.helloasso-sandbox.com/associations/${organizationSlug}/checkout/paiement-attestation/${String(id)}`,
        id: id + 1,
        amount,
        date,
        paymentMeans: 'Card',
        installmentNumber: 1,
        state,
        meta: { createdAt: date, updatedAt: date },
        refundOperations: state === 'Refunded' ? [{ id: id + 2, amount, amountTip: 0, status: 'Processed' }] : [],
      },
    ],
    amount: { total: amount, vat: 0, discount: 0 },
    id,
    date,
    formSlug,
    formType,
    organizationName: 'Collectif Garonne',
    organizationSlug,
    organizationType: 'Association1901',
    organizationIsUnderColucheLaw: false,
    meta: { createdAt: date, updatedAt: date },
    isAnonymous: false,
    isAmountHidden: false,
  };
}

export interface FakeHelloAsso {
  /** What HELLOASSO_API_URL is set to. */
  url: string;
  upstream: FakeUpstream;
  /** The bodies of the intents asked, in order. */
  intents: Record<string, unknown>[];
  tokens(): number;
  /** The token's life in seconds (expires_in). */
  tokenLife: number;
  members: number;
  /** Sets an order readable at GET /v5/orders/{id}. */
  order(order: ReturnType<typeof exampleOrder>): void;
  /** Gives an intent its order (the visitor paid). */
  pay(intentId: number, order: ReturnType<typeof exampleOrder>): void;
  /** Breaks every API path (not the token) or the token endpoint. */
  fail(how: 'refused' | 'error' | 'slow' | 'garbage' | null): void;
  close(): Promise<void>;
}

export async function startFakeHelloAsso(): Promise<FakeHelloAsso> {
  const upstream = await startFakeUpstream();
  const org = FAKE_ACCOUNT.organization;
  const intents: Record<string, unknown>[] = [];
  const paid = new Map<number, unknown>();
  let failing: 'refused' | 'error' | 'slow' | 'garbage' | null = null;
  let issued = 0;

  const fake: FakeHelloAsso = {
    url: upstream.url,
    upstream,
    intents,
    tokens: () => issued,
    tokenLife: 1799,
    members: 142,
    order(order) {
      upstream.on(`/v5/orders/${String(order.id)}`, guarded(json(200, order)));
    },
    pay(intentId, order) {
      paid.set(intentId, order);
      fake.order(order);
    },
    fail(how) {
      failing = how;
    },
    close: () => upstream.close(),
  };

  /** The API's answer, unless the test broke it. */
  function guarded(handler: FakeHandler): FakeHandler {
    return (request, response) => {
      if (failing === 'error') {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal error"}');
        return;
      }
      if (failing === 'slow') {
        silent(request, response);
        return;
      }
      if (failing === 'garbage') {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"tiers": "<script>alert(1)</script>", "data"');
        return;
      }
      if (!/^Bearer token-\d+$/.test(String(request.headers.authorization))) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthorized"}');
        return;
      }
      handler(request, response);
    };
  }

  upstream.on('/oauth2/token', (request, response) => {
    const form = new URLSearchParams(request.body);
    if (
      failing === 'refused' ||
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== FAKE_ACCOUNT.clientId ||
      form.get('client_secret') !== FAKE_ACCOUNT.clientSecret
    ) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":"unauthorized_client","error_description":"client_id or client_secret invalid"}');
      return;
    }
    issued += 1;
    json(200, {
      access_token: `token-${String(issued)}`,
      token_type: 'bearer',
      expires_in: fake.tokenLife,
      refresh_token: `refresh-${String(issued)}`,
    })(request, response);
  });
  const form = (type: string, slug: string, tiers: unknown[]) =>
    guarded(
      json(200, {
        organizationLogo: null,
        organizationName: 'Collectif Garonne',
        tiers,
        activityType: type === 'Membership' ? 'Adhésion' : 'Don',
        activityTypeId: 1,
        place: null,
        saleEndDate: null,
        saleStartDate: '2026-01-01T00:00:00+01:00',
        validityType: 'MovingYear',
        banner: null,
        currency: 'EUR',
        description: 'Adhérez au collectif.',
        startDate: null,
        endDate: null,
        logo: null,
        meta: { createdAt: '2025-12-01T10:00:00+01:00', updatedAt: '2025-12-01T10:00:00+01:00' },
        state: 'Public',
        title: type === 'Membership' ? 'Adhésion 2026' : 'Dons',
        widgetButtonUrl: `https://www.helloasso.com/associations/${org}/${type === 'Membership' ? 'adhesions' : 'formulaires'}/${slug}/widget-bouton`,
        widgetFullUrl: `https://www.helloasso.com/associations/${org}/${type === 'Membership' ? 'adhesions' : 'formulaires'}/${slug}/widget`,
        widgetVignetteHorizontalUrl: '',
        widgetVignetteVerticalUrl: '',
        formSlug: slug,
        formType: type,
        url: `https://www.helloasso.com/associations/${org}/${type === 'Membership' ? 'adhesions' : 'formulaires'}/${slug}`,
        organizationSlug: org,
      }),
    );
  upstream.on(
    `/v5/organizations/${org}/forms/Membership/${FAKE_ACCOUNT.membershipForm}/public`,
    form('Membership', FAKE_ACCOUNT.membershipForm, FAKE_TIERS),
  );
  upstream.on(
    `/v5/organizations/${org}/forms/Donation/${FAKE_ACCOUNT.donationForm}/public`,
    form('Donation', FAKE_ACCOUNT.donationForm, []),
  );
  upstream.on(
    `/v5/organizations/${org}/forms/Membership/${FAKE_ACCOUNT.membershipForm}/orders`,
    guarded((request, response) => {
      json(200, {
        data: [],
        pagination: {
          pageSize: 1,
          totalCount: fake.members,
          pageIndex: 1,
          totalPages: fake.members,
          continuationToken: 'abc',
        },
      })(request, response);
    }),
  );
  upstream.on(
    `/v5/organizations/${org}/checkout-intents`,
    guarded((request, response) => {
      const body = JSON.parse(request.body) as Record<string, unknown>;
      intents.push(body);
      const id = 75_698_000 + intents.length;
      upstream.on(
        `/v5/organizations/${org}/checkout-intents/${String(id)}`,
        guarded((inner, answer) => {
          const order = paid.get(id);
          json(200, {
            metadata: body.metadata,
            ...(order === undefined ? {} : { order }),
            id,
            redirectUrl: `https://www.helloasso-sandbox.com/associations/${org}/checkout/${String(id)}`,
          })(inner, answer);
        }),
      );
      json(200, { id, redirectUrl: `https://www.helloasso-sandbox.com/associations/${org}/checkout/${String(id)}` })(
        request,
        response,
      );
    }),
  );
  return fake;
}
