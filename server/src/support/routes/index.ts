import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { DONATION_BOUNDS, type SupportAnswer } from '@collectif/shared/schemas';
import { SUPPORT_PAGE, siteConfig } from '@collectif/shared/config';
import { ApiHttpError, UpstreamError } from '../../http/errors';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas, supportBodies } from '../../api/schemas/routes';
import { frenchInput } from '../../api/http/validation';
import { demoHelloAsso } from '../demo';
import { supportContent } from '../links';
import { figuresRoute } from './figures';
import { notificationsRoute } from './notifications';
import { returnRoute } from './return';
import { DONOR_COOKIE, noStore, RETURN_PAGE, SUGGESTED, SUPPORT_INTENTS_PER_MIN, supportService } from '../service';

// Read by every page (the navbar's and the footer's « Nous soutenir »): kept in its own small module.
export { supportLinks } from '../links';

/**
 * Memberships and gifts through HelloAsso (docs/support.md): GET /api/support and the intents here,
 * the return page's check (return.ts), HelloAsso's notifications (notifications.ts),
 * the editor's figures (figures.ts), and, without settings, the demo's HelloAsso.
 */
export const supportPlugin: FastifyPluginAsync<{ siteOrigin?: string }> = async (instance, options) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const config = app.apiConfig;
  if (config.support.helloasso === null && config.support.demo) await app.register(demoHelloAsso, { now: app.clock });
  const service = supportService(app, options.siteOrigin);
  const { client, counts, forms, seals, origin, residences, progressNow } = service;

  app.get('/support', { schema: { response: { 200: routeSchemas.support } } }, async (_request, reply) => {
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
  const redirectAnswer = { 200: routeSchemas.supportRedirect, '4xx': routeSchemas.error };

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
      // The return page tells this browser alone what its gift was (docs/support.md, « The return page »).
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
      const redirectUrl = service.demo ? `${form.url}?tier=${String(tier.id)}` : form.url;
      return noStore(reply).send({ redirectUrl });
    },
  );

  returnRoute(app, service);
  notificationsRoute(app, service);
  figuresRoute(app, service);
};
