import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { ApiHttpError, UpstreamError } from '../../http/errors';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas, supportInputs } from '../../api/schemas/routes';
import { frenchInput } from '../../api/http/validation';
import { DEMO_ACCOUNT } from '../demo';
import { authorizedAmount, type HelloAssoOrder } from '../helloasso';
import { NOTIFICATION_MAX_BYTES, NOTIFICATIONS_PER_MIN, noStore, type SupportService } from '../service';

/**
 * POST /api/support/notifications/:key, HelloAsso's notifications (docs/support.md,
 * « Notifications »): no XSRF token (HelloAsso cannot send one), bounded by a rate limit and a body
 * size instead. The address carries the secret HELLOASSO_NOTIFICATION_KEY, compared in constant
 * time: another address is refused before HelloAsso is asked anything; and even then nothing is
 * believed before the order is read back.
 */
export function notificationsRoute(instance: FastifyInstance, service: SupportService): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { client, counts, kindOf, count } = service;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const notificationKey = digest((app.apiConfig.support.helloasso ?? DEMO_ACCOUNT).notificationKey);
  app.post(
    '/support/notifications/:key',
    {
      bodyLimit: NOTIFICATION_MAX_BYTES,
      config: { xsrf: false, caller: 'helloasso', rateLimit: { max: NOTIFICATIONS_PER_MIN, timeWindow: 60_000 } },
      schema: { params: routeSchemas.supportNotificationParams, body: routeSchemas.supportNotificationBody },
      // The key checked like every address; the body never refused (`supportInputs.notificationBody`).
      validatorCompiler: (route) =>
        route.httpPart === 'body'
          ? (value: unknown) => {
              const read = v.safeParse(supportInputs.notification, value);
              return { value: read.success ? read.output : null };
            }
          : frenchInput(supportInputs.notificationParams, 'Cette adresse n’existe pas.')(route),
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
      // payment's notification, a refund taking it back). Its residence is that intent's, never the
      // notification's own. A checkout made elsewhere (another tool of the association's account) is
      // not the site's to count.
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
}
