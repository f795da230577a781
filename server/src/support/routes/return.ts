import type { FastifyInstance } from 'fastify';
import type { SupportReturn } from '@collectif/shared/schemas';
import { readCookie } from '@collectif/shared';
import { ApiHttpError, UpstreamError } from '../../http/errors';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas, supportInputs } from '../../api/schemas/routes';
import { frenchInput } from '../../api/http/validation';
import { authorizedAmount } from '../helloasso';
import { DONOR_COOKIE, noStore, RETURNS_PER_MIN, type SupportService } from '../service';

/**
 * GET /api/support/retour: the payment read back from HelloAsso when it sends the visitor back
 * (docs/support.md, « The return page »): paid, refused or unfinished, and counted once paid.
 */
export function returnRoute(instance: FastifyInstance, service: SupportService): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { client, seals, kindOf, count } = service;
  app.get(
    '/support/retour',
    {
      config: { rateLimit: { max: RETURNS_PER_MIN, timeWindow: 60_000 } },
      schema: {
        querystring: routeSchemas.supportReturnQuery,
        response: { 200: routeSchemas.supportReturn, '4xx': routeSchemas.error },
      },
      validatorCompiler: frenchInput(supportInputs.returnQuery, 'Adresse de retour invalide.'),
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
}
