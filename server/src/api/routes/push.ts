import type { FastifyInstance } from 'fastify';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { pushBodies, routeSchemas } from '../schemas/routes';
import { frenchInput } from '../http/validation';
import { ApiHttpError } from '../errors';
import { checkSubscription } from '../../push/endpoint';

/**
 * « Me prévenir »'s routes (docs/push.md, « The API »): the VAPID public key, and a browser's
 * subscription saved or removed. A subscription is hostile input: its body is bounded before it is
 * read, its endpoint must be a push service's https address (push/endpoint.ts), its keys of their
 * sizes, its residences the site's; new ones are bounded per network and day and in all.
 */

/** The largest body: 50 choices and an endpoint of 1,024 characters fit in half of it. */
export const PUSH_BODY_MAX = 8 * 1024;
/** Writes one address may make a minute (a visitor ticks a few boxes). */
export const PUSH_WRITES_PER_MIN = 30;

const off = () =>
  new ApiHttpError(503, 'push_off', 'Les notifications ne sont pas en service sur ce site pour le moment.');

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
      const outcome = await store
        .replace({ endpoint, keys, residences, at: app.clock() }, async () => {
          // A new subscription only: a visitor's network makes so many a day (docs/push.md, « Bounds »).
          const counts = await store.network(request.ip);
          const { perNetwork, perWideNetwork } = app.apiConfig.push;
          return counts.network <= perNetwork && counts.wide <= perWideNetwork;
        })
        .catch(() => {
          throw new ApiHttpError(
            503,
            'unavailable',
            'Les notifications ne peuvent pas être enregistrées pour le moment : réessayez dans un instant.',
          );
        });
      if (outcome === 'other') {
        throw new ApiHttpError(403, 'forbidden', 'Cet abonnement appartient à un autre navigateur.');
      }
      if (outcome === 'network') {
        throw new ApiHttpError(429, 'too_many', 'Trop d’abonnements depuis ce réseau aujourd’hui : réessayez demain.');
      }
      if (outcome === 'full') {
        // The subscriptions are at their memory's bound (docs/push.md, « Bounds »): an hour, then again.
        void reply.header('Retry-After', '3600');
        throw new ApiHttpError(
          503,
          'full',
          'Le site ne peut plus prendre de nouveaux abonnements aux notifications pour le moment.',
        );
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
      // Written as a subscription's are kept (the address as URL writes it, the key in base64url
      // without padding). Whether there was one or not, the answer is the same: nothing says which
      // endpoints are kept.
      let endpoint = request.body.endpoint;
      try {
        endpoint = new URL(endpoint).href;
      } catch {
        // Not an address: no subscription has it.
      }
      const auth = Buffer.from(request.body.keys.auth, 'base64url').toString('base64url');
      await app.push.store.remove(endpoint, auth).catch(() => {
        throw new ApiHttpError(
          503,
          'unavailable',
          'La demande ne peut pas être enregistrée pour le moment : réessayez dans un instant.',
        );
      });
      app.push.recount();
      return reply.code(204).header('Cache-Control', 'no-store').send();
    },
  );
  done();
}
