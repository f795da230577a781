import * as v from 'valibot';
import { UpstreamError } from '../http/errors';
import { fetchUpstream, jsonBody, type UpstreamRequest, type UpstreamResponse } from '../upstream/fetch';
import { readTokenResponse } from '../upstream/token';
import type { SharedCacheStore } from '../instances/shared-state';
import type { HelloAssoAccount } from './config';
import { SharedToken } from './token';

/**
 * HelloAsso's API v5 as the site uses it (docs/support.md): the membership and donation forms, the
 * count of the membership form's orders this year, checkout intents, and reading an intent or an
 * order back. Every answer is input: read with its schema, bounded (fetchUpstream's size and time),
 * and anything that does not fit is an UpstreamError (`invalid`), never a guess.
 */

/** How one call reaches HelloAsso: over the network, or the demo's routes on the site itself. */
export type Transport = (request: UpstreamRequest) => Promise<UpstreamResponse>;

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
const cents = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000_000));
const shortText = (max: number) => v.pipe(v.string(), v.maxLength(max));
const address = v.pipe(v.string(), v.maxLength(2048), v.regex(/^(https:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/));

const tierSchema = v.object({
  id,
  label: v.optional(v.nullable(shortText(250))),
  description: v.optional(v.nullable(shortText(2000))),
  price: v.optional(v.nullable(cents)),
});

/** GET /v5/organizations/{org}/forms/{type}/{slug}/public: the parts the site shows. */
const formSchema = v.object({
  url: address,
  title: v.optional(v.nullable(shortText(250))),
  tiers: v.optional(v.nullable(v.pipe(v.array(v.unknown()), v.maxLength(200)))),
});

const countSchema = v.object({
  pagination: v.object({ totalCount: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000)) }),
});

const paymentSchema = v.object({
  id,
  amount: cents,
  state: shortText(40),
});

/** An order (GET /v5/orders/{id}, or an intent's `order`): what the site needs to count it. */
const orderSchema = v.object({
  id,
  date: v.optional(shortText(40)),
  formSlug: shortText(250),
  formType: shortText(40),
  organizationSlug: shortText(250),
  payments: v.optional(v.pipe(v.array(paymentSchema), v.maxLength(100)), []),
});
export type HelloAssoOrder = v.InferOutput<typeof orderSchema>;

const intentCreatedSchema = v.object({ id, redirectUrl: address });

/** The metadata the site gives an intent: what it is for, and the residence it names. */
export const intentMetadataSchema = v.object({
  kind: v.literal('don'),
  reference: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/)),
  residence: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,60}$/))),
});
export type IntentMetadata = v.InferOutput<typeof intentMetadataSchema>;

const intentSchema = v.object({
  id,
  metadata: v.optional(v.nullable(v.unknown())),
  order: v.optional(v.nullable(orderSchema)),
});

export interface FormInfo {
  url: string;
  tiers: { id: number; label: string; price: number; description?: string }[];
}

export interface IntentInfo {
  id: number;
  /** Ours when they fit our schema; null otherwise (the intent is then not ours). */
  metadata: IntentMetadata | null;
  order: HelloAssoOrder | null;
}

function read<T>(schema: v.GenericSchema<unknown, T>, response: UpstreamResponse, what: string): T {
  if (response.status === 404) throw new UpstreamError('helloasso', 'not_found', what);
  if (response.status < 200 || response.status >= 300) {
    throw new UpstreamError('helloasso', 'status', `${what} : HTTP ${String(response.status)}`, response.status);
  }
  const checked = v.safeParse(schema, jsonBody('helloasso', response));
  if (!checked.success) throw new UpstreamError('helloasso', 'invalid', `${what} : réponse inattendue`);
  return checked.output;
}

/** The authorized amount of an order, in cents: only authorized payments count (docs/support.md). */
export function authorizedAmount(order: HelloAssoOrder): number {
  return order.payments.filter((payment) => payment.state === 'Authorized').reduce((sum, p) => sum + p.amount, 0);
}

export interface HelloAssoClient {
  readonly account: Pick<HelloAssoAccount, 'organization' | 'membershipForm' | 'donationForm'>;
  form(kind: 'membership' | 'donation'): Promise<FormInfo>;
  /** The membership form's orders from `from` to `to` (ISO instants). */
  countMembers(from: string, to: string): Promise<number>;
  createIntent(intent: {
    amount: number;
    itemName: string;
    backUrl: string;
    errorUrl: string;
    returnUrl: string;
    metadata: IntentMetadata;
  }): Promise<{ id: number; redirectUrl: string }>;
  intent(id: number): Promise<IntentInfo>;
  order(id: number): Promise<HelloAssoOrder>;
}

export function createHelloAssoClient(options: {
  account: Omit<HelloAssoAccount, 'apiUrl'> & { apiUrl: string };
  transport: Transport;
  now: () => number;
  shared: SharedCacheStore | null;
}): HelloAssoClient {
  const { account, transport } = options;
  const tokens = new SharedToken(
    async () => {
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: account.clientSecret,
      }).toString();
      const response = await transport({
        url: `${account.apiUrl}/oauth2/token`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
      });
      return readTokenResponse('helloasso', response);
    },
    { now: options.now, shared: options.shared },
  );

  /** One call with the token; a 401 (expired or revoked) gets a new one once. */
  async function call(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}) {
    const request = (token: string): UpstreamRequest => ({
      url: `${account.apiUrl}/v5${path}`,
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const token = await tokens.get();
    const response = await transport(request(token));
    if (response.status !== 401) return response;
    await tokens.invalidate(token);
    const again = await transport(request(await tokens.get()));
    if (again.status === 401 || again.status === 403) {
      throw new UpstreamError('helloasso', 'auth', `HTTP ${String(again.status)}`, again.status);
    }
    return again;
  }

  const org = encodeURIComponent(account.organization);
  const forms = {
    membership: `/organizations/${org}/forms/Membership/${encodeURIComponent(account.membershipForm)}`,
    donation: `/organizations/${org}/forms/Donation/${encodeURIComponent(account.donationForm)}`,
  };

  return {
    account,
    async form(kind) {
      const form = read(formSchema, await call(`${forms[kind]}/public`), 'formulaire');
      const tiers = (form.tiers ?? []).flatMap((entry) => {
        const tier = v.safeParse(tierSchema, entry);
        if (!tier.success || typeof tier.output.price !== 'number') return [];
        const label = (tier.output.label ?? '').trim();
        const description = (tier.output.description ?? '').trim();
        return [
          {
            id: tier.output.id,
            label: label === '' ? 'Adhésion' : label,
            price: tier.output.price,
            ...(description === '' ? {} : { description }),
          },
        ];
      });
      return { url: form.url, tiers };
    },
    async countMembers(from, to) {
      const query = new URLSearchParams({ from, to, pageSize: '1' });
      return read(countSchema, await call(`${forms.membership}/orders?${query.toString()}`), 'commandes').pagination
        .totalCount;
    },
    async createIntent(intent) {
      const created = await call(`/organizations/${org}/checkout-intents`, {
        method: 'POST',
        body: {
          totalAmount: intent.amount,
          initialAmount: intent.amount,
          itemName: intent.itemName,
          backUrl: intent.backUrl,
          errorUrl: intent.errorUrl,
          returnUrl: intent.returnUrl,
          containsDonation: true,
          metadata: intent.metadata,
        },
      });
      return read(intentCreatedSchema, created, 'intention de paiement');
    },
    async intent(intentId) {
      const intent = read(
        intentSchema,
        await call(`/organizations/${org}/checkout-intents/${String(intentId)}`),
        'intention de paiement',
      );
      const metadata = v.safeParse(intentMetadataSchema, intent.metadata);
      return { id: intent.id, metadata: metadata.success ? metadata.output : null, order: intent.order ?? null };
    },
    async order(orderId) {
      return read(orderSchema, await call(`/orders/${String(orderId)}`), 'commande');
    },
  };
}

/** The network's transport, bounded like every upstream (UPSTREAM_TIMEOUT_MS, UPSTREAM_MAX_BYTES). */
export function networkTransport(limits: { timeoutMs: number; maxBytes: number }): Transport {
  return (request) => fetchUpstream('helloasso', request, limits);
}
