import type { FastifyPluginCallback } from 'fastify';
import { RADIO_SETTINGS_PATH } from '@collectif/shared/config';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';
import { supportLinks } from '../../support/routes';

/**
 * GET /api/radio: the radio's settings for the player on partner sites (the site's pages carry them
 * inline). They change only with a restart; a minute of caching lets a move of the stream reach them soon.
 */
const radio: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  app.get(RADIO_SETTINGS_PATH, { schema: { response: { 200: routeSchemas.radio } } }, async (_request, reply) => {
    // The support's links change when an admin turns HelloAsso on or off (docs/support.md, « Links »).
    const settings = { ...app.apiConfig.radio, support: supportLinks(app) };
    return reply.representation(`radio|${settings.support.page}`, () => reply.serialized(settings), {
      cacheControl: 'public, max-age=60',
    });
  });
  done();
};

export default radio;
