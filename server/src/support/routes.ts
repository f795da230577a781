import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import * as v from 'valibot';
import {
  DONATION_BOUNDS,
  supportFiguresSchema,
  supportRedirectSchema,
  supportReturnSchema,
  supportSchema,
  apiErrorSchema,
  type SupportAnswer,
  type SupportFigures,
  type SupportReturn,
} from '@collectif/shared/schemas';
import { readCookie } from '@collectif/shared';
import { SUPPORT_PAGE, siteConfig, type SupportLinks } from '@collectif/shared/config';
import { sealer } from '../instances/seal';
import { ApiHttpError, UpstreamError } from '../http/errors';
import { UpstreamCache } from '../upstream/cache';
import { jsonSchema, type ValibotJsonTypeProvider } from '../api/schemas/provider';
import { routeSchemas, supportBodies } from '../api/schemas/routes';
import { frenchInput } from '../api/http/validation';
import { createCountsStore, monthKey, type CountsStore } from './counts';
import { DEMO_ACCOUNT, demoHelloAsso, injectTransport } from './demo';
import {
  authorizedAmount,
  createHelloAssoClient,
  networkTransport,
  type HelloAssoClient,
  type HelloAssoOrder,
} from './helloasso';

/** The return page of a payment (mf-about's), HelloAsso's query appended. */
export const RETURN_PAGE = `${SUPPORT_PAGE}/merci`;
/** How long the forms and the year's count are kept before HelloAsso is asked again. */
export const SUPPORT_TTL_MS = 10 * 60_000;
/** Intents (and membership choices) one address may ask a minute (docs/support.md, « Bounds »). */
export const SUPPORT_INTENTS_PER_MIN = 5;
/** Notifications one address may send a minute, and the largest body (docs/support.md). */
export const NOTIFICATIONS_PER_MIN = 120;
/** Return pages one address may check a minute: each asks HelloAsso. */
export const RETURNS_PER_MIN = 30;
export const NOTIFICATION_MAX_BYTES = 64 * 1024;
/** The suggested gifts, in cents. */
export const SUGGESTED = [1000, 2000, 5000];

/** The kind `support` as the content has it (checked by its schema at each save). */
interface SupportContent {
  helloasso: boolean;
  goal?: number;
}

function supportContent(app: FastifyInstance): SupportContent {
  const data = app.content.current('support').data as Partial<SupportContent> | null;
  const { helloasso, demo } = app.apiConfig.support;
  return {
    // Off when an admin turned it off, and where the site is deployed without HelloAsso's settings
    // (no demo there: docs/support.md, « The demo »).
    helloasso: data?.helloasso !== false && (helloasso !== null || demo),
    ...(typeof data?.goal === 'number' ? { goal: data.goal } : {}),
  };
}

/** Where « Nous soutenir » leads now: the page while HelloAsso is on, else the external one. */
export function supportLinks(app: FastifyInstance): SupportLinks {
  return { page: supportContent(app).helloasso ? SUPPORT_PAGE : '', external: siteConfig.links.donation };
}

/** The year in Paris and its first instant. */
function yearOf(at: number): { year: number; start: string } {
  const year = Number(monthKey(at).slice(0, 4));
  return { year, start: `${String(year)}-01-01T00:00:00+01:00` };
}

const residenceId = v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,60}$/));
const idText = v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number));

/** The query HelloAsso appends to the return address. */
const returnQuery = v.object({
  checkoutIntentId: v.optional(idText),
  orderId: v.optional(idText),
  code: v.optional(v.pipe(v.string(), v.maxLength(40))),
  error: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

const positiveId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
/** A HelloAsso notification: only what names its order is read; the rest is not believed. */
const notificationSchema = v.object({
  eventType: v.pipe(v.string(), v.maxLength(40)),
  data: v.object({ id: v.optional(positiveId), order: v.optional(v.object({ id: positiveId })) }),
  metadata: v.optional(v.unknown()),
});

/** A notification's address: the secret key, bounded before it is compared. */
const notificationParams = v.strictObject({ key: v.pipe(v.string(), v.maxLength(200)) });
/**
 * A notification's body as the route declares it: one HelloAsso may send that this route does not
 * read (another event, another shape) is `null`, answered 204 and ignored rather than refused, so
 * that HelloAsso does not send it again.
 */
const notificationBody = v.nullable(notificationSchema);

const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

/** The cookie that tells the return page which intent this browser made (sealed with SITE_SECRET). */
const DONOR_COOKIE = 'collectif_don';

/**
 * Memberships and gifts through HelloAsso (docs/support.md): GET /api/support, the intents, the
 * return page's check, HelloAsso's notifications, the editor's figures, and, without settings, the
 * demo's HelloAsso.
 */
export const supportPlugin: FastifyPluginAsync<{ siteOrigin?: string }> = async (instance, options) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const config = app.apiConfig;
  const now = app.clock;
  const account = config.support.helloasso;
  const demo = account === null;
  const shared = app.shared?.cache ?? null;
  if (demo && config.support.demo) await app.register(demoHelloAsso, { now });
  const client: HelloAssoClient = createHelloAssoClient({
    account: account ?? DEMO_ACCOUNT,
    transport: demo ? injectTransport(app) : networkTransport(config.upstream),
    now,
    // The demo's token is this process's own.
    shared: demo ? null : shared,
  });
  const seals = sealer(config.siteSecret);
  const counts: CountsStore = createCountsStore({
    file: join(config.contentDir, 'support-counts.json'),
    shared,
    now,
  });
  const sharedAs = (key: string) => (demo || shared === null ? {} : { shared: { store: shared, key } });
  const forms = new UpstreamCache(
    'helloasso',
    async () => {
      const [membership, donation] = await Promise.all([client.form('membership'), client.form('donation')]);
      return { membership, donationUrl: donation.url };
    },
    { ttlMs: SUPPORT_TTL_MS, now, metrics: app.metrics.site, ...sharedAs('helloasso:forms') },
  );
  const members = new UpstreamCache(
    'helloasso',
    async () => {
      const { year, start } = yearOf(now());
      const count = await client.countMembers(start, new Date(now()).toISOString());
      return { year, members: count, at: new Date(now()).toISOString() };
    },
    { ttlMs: SUPPORT_TTL_MS, now, metrics: app.metrics.site, ...sharedAs('helloasso:members') },
  );
  // Where HelloAsso sends the visitor back: the site's own pages (a path for the demo's).
  const origin = demo ? '' : (options.siteOrigin ?? '');

  const residences = () => app.content.current('residences').data as { id: string; artist?: string }[];

  const progressNow = async (goal?: number): Promise<SupportAnswer['progress']> => {
    try {
      const read = await members.get();
      return { ...read.value, ...(goal === undefined ? {} : { goal }), stale: read.state === 'stale' };
    } catch {
      return null;
    }
  };

  app.get('/support', { schema: { response: { 200: jsonSchema(supportSchema) } } }, async (_request, reply) => {
    const settings = supportContent(app);
    const external = siteConfig.links.donation;
    let membership: SupportAnswer['membership'] = null;
    let monthlyUrl = external;
    if (settings.helloasso) {
      try {
        const read = await forms.get();
        membership = { formUrl: read.value.membership.url, tiers: read.value.membership.tiers };
        monthlyUrl = read.value.donationUrl;
      } catch {
        // HelloAsso is down and nothing was read yet: the page keeps the external link.
      }
    }
    const answer: SupportAnswer = {
      helloasso: settings.helloasso,
      external,
      membership,
      donation: { suggested: SUGGESTED, min: DONATION_BOUNDS.min, max: DONATION_BOUNDS.max, monthlyUrl },
      progress: settings.helloasso ? await progressNow(settings.goal) : null,
      taxReceipt: config.support.taxReceipt,
    };
    return reply.header('Cache-Control', 'public, max-age=30').send(answer);
  });

  const closed = () =>
    new ApiHttpError(409, 'support_closed', 'Les dons et adhésions en ligne sont fermés : passez par la page externe.');
  const intentLimit = { rateLimit: { max: SUPPORT_INTENTS_PER_MIN, timeWindow: 60_000 } };
  const redirectAnswer = { 200: jsonSchema(supportRedirectSchema), '4xx': jsonSchema(apiErrorSchema) };

  app.post(
    '/support/don',
    {
      config: intentLimit,
      schema: { body: routeSchemas.supportDonation, response: redirectAnswer },
      validatorCompiler: frenchInput(supportBodies.donation, 'Demande de don invalide.'),
    },
    async (request, reply) => {
      const { body } = request;
      if (!supportContent(app).helloasso) throw closed();
      const residence =
        body.residence === undefined ? undefined : residences().find((entry) => entry.id === body.residence);
      if (body.residence !== undefined && residence === undefined) {
        throw new ApiHttpError(400, 'bad_request', 'Résidence inconnue : ce don ne peut pas la nommer.');
      }
      const reference = randomBytes(12).toString('base64url');
      const itemName =
        residence === undefined
          ? 'Don au collectif'
          : `Don au collectif — ${(residence.artist ?? residence.id).slice(0, 200)}`;
      const intent = await client.createIntent({
        amount: body.amount,
        itemName,
        backUrl: `${origin}${SUPPORT_PAGE}`,
        errorUrl: `${origin}${RETURN_PAGE}`,
        returnUrl: `${origin}${RETURN_PAGE}`,
        metadata: { kind: 'don', reference, ...(residence === undefined ? {} : { residence: residence.id }) },
      });
      await counts.remember(reference, {
        amount: body.amount,
        ...(residence === undefined ? {} : { residence: residence.id }),
      });
      request.log.info({ intent: intent.id, residence: residence?.id }, 'soutien : intention de paiement créée');
      // The return page tells this browser alone what its gift was (docs/support.md, « The return »).
      const https = request.protocol === 'https';
      reply.header(
        'Set-Cookie',
        `${DONOR_COOKIE}=${seals.seal('don', String(intent.id))}; Path=/api/support/retour; Max-Age=86400; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`,
      );
      return noStore(reply).send({ redirectUrl: intent.redirectUrl });
    },
  );

  app.post(
    '/support/adhesion',
    {
      config: intentLimit,
      schema: { body: routeSchemas.supportMembership, response: redirectAnswer },
      validatorCompiler: frenchInput(supportBodies.membership, 'Demande d’adhésion invalide.'),
    },
    async (request, reply) => {
      const { body } = request;
      if (!supportContent(app).helloasso) throw closed();
      let form;
      try {
        form = (await forms.get()).value.membership;
      } catch (error) {
        if (error instanceof UpstreamError) {
          throw new ApiHttpError(
            503,
            'upstream_unavailable',
            'Les adhésions sont indisponibles pour le moment : réessayez plus tard.',
          );
        }
        throw error;
      }
      const tier = form.tiers.find((each) => each.id === body.tier);
      if (tier === undefined) {
        throw new ApiHttpError(400, 'bad_request', 'Ce tarif n’existe pas dans le formulaire d’adhésion.');
      }
      // The demo's form page shows the tier chosen; HelloAsso's shows them all.
      const redirectUrl = demo ? `${form.url}?tier=${String(tier.id)}` : form.url;
      return noStore(reply).send({ redirectUrl });
    },
  );

  /** What an order of ours is: a gift, a membership, or none of ours (another form, another organisation). */
  const kindOf = (order: HelloAssoOrder): 'don' | 'adhesion' | null => {
    const ours = client.account;
    if (order.organizationSlug !== ours.organization) return null;
    if (order.formType === 'Checkout') return 'don';
    if (order.formType === 'Membership' && order.formSlug === ours.membershipForm) return 'adhesion';
    if (order.formType === 'Donation' && order.formSlug === ours.donationForm) return 'don';
    return null;
  };
  const monthOfOrder = (order: HelloAssoOrder) => {
    const at = order.date === undefined ? Number.NaN : Date.parse(order.date);
    return monthKey(Number.isFinite(at) ? at : now());
  };
  /** Counts an order read back from HelloAsso (again: its authorized amount), or takes it back. */
  const count = async (order: HelloAssoOrder, kind: 'don' | 'adhesion', residence?: string) => {
    const amount = authorizedAmount(order);
    const known = residence !== undefined && residences().some((entry) => entry.id === residence);
    return counts.record(
      order.id,
      amount > 0
        ? { month: monthOfOrder(order), kind, amount, ...(known && kind === 'don' ? { residence } : {}) }
        : null,
    );
  };

  app.get(
    '/support/retour',
    {
      config: { rateLimit: { max: RETURNS_PER_MIN, timeWindow: 60_000 } },
      schema: {
        querystring: jsonSchema(returnQuery),
        response: { 200: jsonSchema(supportReturnSchema), '4xx': jsonSchema(apiErrorSchema) },
      },
      validatorCompiler: frenchInput(returnQuery, 'Adresse de retour invalide.'),
    },
    async (request, reply) => {
      const { query } = request;
      noStore(reply);
      const unpaid = (kind: SupportReturn['kind']): SupportReturn => ({
        state: query.code === 'refused' || query.error !== undefined ? 'refused' : 'unfinished',
        kind,
      });
      if (query.checkoutIntentId !== undefined) {
        // Only the browser that made the intent (its sealed cookie) learns anything of it: another
        // would read a donor's amount and residence by trying ids.
        const sealed = readCookie(DONOR_COOKIE, request.headers.cookie ?? '');
        if (sealed === null || seals.open('don', sealed) !== String(query.checkoutIntentId)) {
          throw new ApiHttpError(404, 'not_found', 'Ce paiement n’a pas été fait depuis ce navigateur.');
        }
        const intent = await client.intent(query.checkoutIntentId).catch((error: unknown) => {
          if (error instanceof UpstreamError && error.failure === 'not_found') {
            throw new ApiHttpError(404, 'not_found', 'Ce paiement est inconnu de HelloAsso.');
          }
          throw error;
        });
        if (intent.metadata === null)
          throw new ApiHttpError(404, 'not_found', 'Ce paiement n’a pas été fait depuis ce site.');
        const order = intent.order;
        if (order === null || kindOf(order) === null || authorizedAmount(order) === 0) {
          return reply.send(unpaid('don'));
        }
        await count(order, 'don', intent.metadata.residence);
        const answer: SupportReturn = {
          state: 'paid',
          kind: 'don',
          amount: authorizedAmount(order),
          ...(intent.metadata.residence === undefined ? {} : { residence: intent.metadata.residence }),
        };
        return reply.send(answer);
      }
      if (query.orderId !== undefined) {
        const order = await client.order(query.orderId).catch((error: unknown) => {
          if (error instanceof UpstreamError && error.failure === 'not_found') {
            throw new ApiHttpError(404, 'not_found', 'Cette commande est inconnue de HelloAsso.');
          }
          throw error;
        });
        const kind = kindOf(order);
        // A checkout comes back with its intent (checkoutIntentId, above); named by its order alone
        // it could be one made elsewhere, which is not the site's to count.
        if (kind === null || order.formType === 'Checkout')
          throw new ApiHttpError(404, 'not_found', 'Cette commande n’a pas été faite pour le collectif.');
        if (authorizedAmount(order) === 0) return reply.send(unpaid(kind));
        // A checkout's residence is read from its intent only: never from the address.
        await count(order, kind);
        return reply.send({ state: 'paid', kind, amount: authorizedAmount(order) } satisfies SupportReturn);
      }
      return reply.send(unpaid('don'));
    },
  );

  // HelloAsso's notifications (docs/support.md, « Notifications »): no XSRF token (HelloAsso cannot
  // send one), bounded by a rate limit and a body size instead. The address carries the secret
  // HELLOASSO_NOTIFICATION_KEY, compared in constant time: another address is refused before
  // HelloAsso is asked anything; and even then nothing is believed before the order is read back.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const notificationKey = digest((account ?? DEMO_ACCOUNT).notificationKey);
  app.post(
    '/support/notifications/:key',
    {
      bodyLimit: NOTIFICATION_MAX_BYTES,
      config: { xsrf: false, caller: 'helloasso', rateLimit: { max: NOTIFICATIONS_PER_MIN, timeWindow: 60_000 } },
      schema: { params: jsonSchema(notificationParams), body: jsonSchema(notificationBody) },
      // The key checked like every address; the body never refused (`notificationBody`).
      validatorCompiler: (route) =>
        route.httpPart === 'body'
          ? (value: unknown) => {
              const read = v.safeParse(notificationSchema, value);
              return { value: read.success ? read.output : null };
            }
          : frenchInput(notificationParams, 'Cette adresse n’existe pas.')(route),
    },
    async (request, reply) => {
      noStore(reply);
      if (!timingSafeEqual(digest(request.params.key), notificationKey)) {
        request.log.warn('soutien : notification refusée (adresse sans la clé HELLOASSO_NOTIFICATION_KEY)');
        throw new ApiHttpError(404, 'not_found', 'Cette adresse n’existe pas.');
      }
      const notification = request.body;
      const orderId =
        notification === null
          ? undefined
          : notification.eventType === 'Order'
            ? notification.data.id
            : notification.eventType === 'Payment'
              ? notification.data.order?.id
              : undefined;
      if (orderId === undefined) {
        request.log.info('soutien : notification ignorée (ni commande ni paiement lisible)');
        return reply.code(204).send();
      }
      let order: HelloAssoOrder;
      try {
        order = await client.order(orderId);
      } catch (error) {
        if (error instanceof UpstreamError && error.failure === 'not_found') {
          request.log.warn({ order: orderId }, 'soutien : notification ignorée (commande inconnue de HelloAsso)');
          return reply.code(204).send();
        }
        throw error;
      }
      const kind = kindOf(order);
      if (kind === null) {
        request.log.warn({ order: orderId }, 'soutien : notification ignorée (autre formulaire ou autre organisation)');
        return reply.code(204).send();
      }
      // A checkout is a gift of the site's only when it answers an intent the site made: its
      // reference names one the site kept, of the order's amount, or the site counted it already (a
      // payment's notification, a refund taking it back). Its
      // residence is that intent's, never the notification's own. A checkout made elsewhere (another
      // tool of the association's account) is not the site's to count.
      let residence: string | undefined;
      const reference =
        notification === null ? undefined : (notification.metadata as { reference?: unknown } | undefined)?.reference;
      if (order.formType === 'Checkout') {
        const kept = await counts.read();
        const intent = typeof reference === 'string' ? kept.references[reference] : undefined;
        const amount = authorizedAmount(order);
        // An order the site counted already (its payment's notification, a refund) is its own.
        const counted = kept.orders[String(order.id)] !== undefined;
        if (!counted && (intent === undefined || (amount > 0 && intent.amount !== amount))) {
          request.log.warn({ order: orderId }, 'soutien : notification ignorée (paiement sans intention du site)');
          return reply.code(204).send();
        }
        residence = intent?.residence;
      }
      const changed = await count(order, kind, residence);
      request.log.info({ order: orderId, kind, changed }, 'soutien : notification vérifiée');
      return reply.code(204).send();
    },
  );

  app.get(
    '/editor/figures/support',
    {
      config: { editor: true },
      schema: {
        querystring: jsonSchema(v.strictObject({ residence: v.optional(residenceId) })),
        response: { 200: jsonSchema(supportFiguresSchema), '4xx': jsonSchema(apiErrorSchema) },
      },
    },
    async (request, reply) => {
      const editor = await app.editorOf(request);
      const asked = request.query.residence;
      noStore(reply);
      if (editor.role === 'residence' && asked !== undefined && asked !== editor.residence) {
        throw new ApiHttpError(403, 'forbidden', 'Vous ne voyez que les chiffres de votre résidence.');
      }
      const { year } = yearOf(now());
      const months = Object.entries((await counts.read()).months).filter(([key]) => key.startsWith(`${String(year)}-`));
      const figures = new Map<string, { donations: number; sum: number }>();
      for (const [, month] of months) {
        for (const [id, each] of Object.entries(month.residences)) {
          const sum = figures.get(id) ?? { donations: 0, sum: 0 };
          figures.set(id, { donations: sum.donations + each.donations, sum: sum.sum + each.sum });
        }
      }
      const ids =
        editor.role === 'admin'
          ? asked === undefined
            ? residences().map((entry) => entry.id)
            : [asked]
          : editor.role === 'residence' && editor.residence !== undefined
            ? [editor.residence]
            : [];
      const settings = supportContent(app);
      const progress = await progressNow();
      const answer: SupportFigures = {
        year,
        members: progress?.year === year ? progress.members : null,
        ...(settings.goal === undefined ? {} : { goal: settings.goal }),
        residences: ids.map((id) => ({
          id,
          donations: figures.get(id)?.donations ?? 0,
          // The sums are the admins' only.
          ...(editor.role === 'admin' ? { sum: figures.get(id)?.sum ?? 0 } : {}),
        })),
      };
      return reply.send(answer);
    },
  );
};
