import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * The API described once (docs/api.md, « The description »): an OpenAPI 3.1 document made by
 * @fastify/swagger from the routes' own schemas, which are made from the same Valibot schemas the
 * routes validate with and the clients read (`jsonSchema`, schemas/provider.ts). Registered before
 * every route, so that it sees them all; only the `/api` routes are described (the pages and files
 * are the site's, not an API). Served at GET /api/openapi.json (routes/index.ts).
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'API du collectif',
          version: '1',
          description:
            'La radio, ses émissions, ses résidences, son label, ses évènements et son soutien. Les erreurs répondent { error, message } en français (docs/api.md).',
        },
      },
      transform: ({ schema, url }) => ({
        schema: url.startsWith('/api/') ? schema : { ...schema, hide: true },
        url,
      }),
    });
  },
  { name: 'openapi' },
);
