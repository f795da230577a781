import type { FastifyInstance } from 'fastify';
import type { ValibotJsonTypeProvider } from '../api/schemas/provider';
import { pushBodies, routeSchemas } from '../api/schemas/routes';
import { frenchInput } from '../api/http/validation';
import { ApiHttpError } from '../http/errors';
import { checkSubscription } from './endpoint';

/**
 * « Me prévenir »'s routes (docs/push.md, « The API »): the VAPID public key, and a browser's
 * subscription saved, renewed, moved or removed. A subscription is hostile input: its body is
 * bounded before it is read, its endpoint must be a push service's https address (push/endpoint.ts),
 * its keys of their sizes, its residences the site's; new ones are bounded per network and day and
 * in all. An endpoint another browser holds is answered as one that is not kept.
 */

/** The largest body: 50 choices and an endpoint of 1,024 characters fit in half of it. */
export const PUSH_BODY_MAX = 8 * 1024;
/** The largest renewal: two endpoints of 1,024 characters and three keys fit in about 2.3 KiB. */
export const PUSH_RENEW_BODY_MAX = 4 * 1024;
/** Writes one address may make a minute (a visitor ticks a few boxes). */
export const PUSH_WRITES_PER_MIN = 30;

const off = () =>
  new ApiHttpError(503, 'push_off', 'Les notifications ne sont pas en service sur ce site pour le moment.');
const unavailable = (what: string) => () => {
  throw new ApiHttpError(503, 'unavailable', `${what} pour le moment : réessayez dans un instant.`);
};
const full = () =>
  new ApiHttpError(
    503,
    'full',
    'Le site ne peut plus prendre de nouveaux abonnements aux notifications pour le moment.',
  );
/** One answer for an endpoint that is not kept, kept past its time, or kept by another browser. */
const notKept = () =>
  new ApiHttpError(
    404,
    'not_kept',
    'Cet abonnement aux notifications n’est pas enregistré sur ce site : activez de nouveau « Me prévenir ».',
  );

/**
 * An endpoint and auth key as a kept subscription writes them: the address as URL writes it, the key
 * in base64url without padding. Not an address: no subscription has it.
 */
function asKept(endpoint: string, auth: string): { endpoint: string; auth: string } {
  let href = endpoint;
  try {
    href = new URL(endpoint).href;
  } catch {
    // Kept as it is: it matches nothing.
  }
  return { endpoint: href, auth: Buffer.from(auth, 'base64url').toString('base64url') };
}

export default function pushRoutes(instance: FastifyInstance, _options: unknown, done: () => void): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const errors = { '4xx': routeSchemas.error, '5xx': routeSchemas.error };
  const writes = { rateLimit: { max: PUSH_WRITES_PER_MIN, timeWindow: 60_000 } };

  app.get('/push/key', { schema: { response: { 200: routeSchemas.pushKey, ...errors } } }, async (_request, reply) => {
    const { publicKey } = app.push;
    if (publicKey === null) throw off();
    return reply.header('Cache-Control', 'public, max-age=300').send({ publicKey });
  });

  app.put(
    '/push/subscription',
    {
      bodyLimit: PUSH_BODY_MAX,
      config: writes,
      schema: { body: routeSchemas.pushSubscription, response: { 200: routeSchemas.pushChoices, ...errors } },
      validatorCompiler: frenchInput(pushBodies.subscription, 'Abonnement invalide.'),
    },
    async (request, reply) => {
      if (app.push.publicKey === null) throw off();
      const { body } = request;
      const checked = checkSubscription(body, app.push.extraHosts);
      if (!checked.ok) throw new ApiHttpError(400, 'bad_request', checked.message);
      const { endpoint, keys } = checked.value;
      // Ids the site does not have (any more) are left out, as the follow list does.
      const known = new Set(
        (app.content.current('residences').data as { id: string }[]).map((residence) => residence.id),
      );
      const residences = body.residences.filter((choice) => known.has(choice.id));
      const { store } = app.push;
      if (residences.length === 0) {
        await store.remove(endpoint, keys.auth);
        app.push.recount();
        return reply.header('Cache-Control', 'no-store').send({ residences });
      }
      // A new subscription only: a visitor's network makes so many a day (docs/push.md, « Bounds »).
      const allowNew = async () => {
        const counts = await store.network(request.ip);
        const { perNetwork, perWideNetwork } = app.apiConfig.push;
        return counts.network <= perNetwork && counts.wide <= perWideNetwork;
      };
      const outcome = await store
        .replace({ endpoint, keys, residences, at: app.clock() }, allowNew)
        // Another browser's endpoint is left as it is, and answered as a new one is (counted for its
        // network, then « saved »): nothing says it is kept (docs/push.md, « One answer »).
        .then(async (result) => (result === 'other' && !(await allowNew()) ? 'network' : result))
        .catch(unavailable('Les notifications ne peuvent pas être enregistrées'));
      if (outcome === 'network') {
        throw new ApiHttpError(429, 'too_many', 'Trop d’abonnements depuis ce réseau aujourd’hui : réessayez demain.');
      }
      if (outcome === 'full') {
        // The subscriptions are at their memory's bound (docs/push.md, « Bounds »): an hour, then again.
        void reply.header('Retry-After', '3600');
        throw full();
      }
      app.push.recount();
      return reply.header('Cache-Control', 'no-store').send({ residences });
    },
  );

  app.delete(
    '/push/subscription',
    {
      bodyLimit: PUSH_BODY_MAX,
      config: writes,
      schema: { body: routeSchemas.pushUnsubscription },
      validatorCompiler: frenchInput(pushBodies.unsubscription, 'Demande invalide.'),
    },
    async (request, reply) => {
      // Whether there was one or not, the answer is the same: nothing says which endpoints are kept.
      const { endpoint, auth } = asKept(request.body.endpoint, request.body.keys.auth);
      await app.push.store.remove(endpoint, auth).catch(unavailable('La demande ne peut pas être enregistrée'));
      app.push.recount();
      return reply.code(204).header('Cache-Control', 'no-store').send();
    },
  );

  // The browser's worker renews its subscription (its `at`), or moves it to the one that replaced it
  // (`pushsubscriptionchange`), with the same choices (docs/push.md, « Renewal »). The worker cannot
  // read the page's XSRF cookie: the auth secret, which only the browser and the server hold, is the
  // proof, and only the site's own pages and worker may post (api/http/site-only.ts).
  app.post(
    '/push/subscription/renew',
    {
      bodyLimit: PUSH_RENEW_BODY_MAX,
      config: { ...writes, xsrf: false, siteOnly: true },
      schema: { body: routeSchemas.pushRenewal },
      validatorCompiler: frenchInput(pushBodies.renewal, 'Demande invalide.'),
    },
    async (request, reply) => {
      if (app.push.publicKey === null) throw off();
      const { body } = request;
      const { store } = app.push;
      const failed = unavailable('L’abonnement ne peut pas être renouvelé');
      let outcome: 'renewed' | 'moved' | 'absent' | 'full';
      if (body.old === undefined) {
        const { endpoint, auth } = asKept(body.endpoint, body.keys.auth);
        outcome = (await store.renew(endpoint, auth).catch(failed)) ? 'renewed' : 'absent';
      } else {
        // The new endpoint is checked as a PUT's is, before anything is read of the old one.
        const checked = checkSubscription({ endpoint: body.endpoint, keys: body.keys }, app.push.extraHosts);
        if (!checked.ok) throw new ApiHttpError(400, 'bad_request', checked.message);
        outcome = await store.move(asKept(body.old.endpoint, body.old.keys.auth), checked.value).catch(failed);
      }
      if (outcome === 'absent') throw notKept();
      if (outcome === 'full') {
        void reply.header('Retry-After', '3600');
        throw full();
      }
      app.push.recount();
      return reply.code(204).header('Cache-Control', 'no-store').send();
    },
  );
  done();
}
