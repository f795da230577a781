import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { describe, type Document } from '../openapi/document';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * true: a route the editor's origin answers (`editor`) that the public calls too, without
     * signing in (the episodes, the releases, a content's current version, the XSRF cookie). Only
     * such an editor's route is in the API's description (docs/api.md, « The description »).
     */
    public?: boolean;
    /**
     * Who calls a route of the public's addresses when it is not the public: nginx's mirror on the
     * loopback, HelloAsso's notifications, a team's deploy with its token. Such a route is not in
     * the API's description (docs/api.md, « The description »).
     */
    caller?: 'loopback' | 'helloasso' | 'deploy';
  }
}

/**
 * The addresses that are not the public's API by their name: the editor's, the demo's stand-ins,
 * the admins'; and the reference page with its files, which is a page (routes/reference.ts).
 */
const NOT_PUBLIC = /^\/api\/(?:editor|demo|admin|docs)(?:\/|$)/;

/**
 * Whether a route is in the API's description: the one rule (docs/api.md, « The description »). An
 * `/api` route the public may call is; not a page or a file (the reference page, /api/docs, is
 * one), not a route under /api/editor, /api/demo or /api/admin, not one the editor's origin answers unless it says it is the public's
 * too (so a new editor's route stays out without a flag), not one another caller makes.
 */
export function isDescribed(route: { url: string; config?: FastifyContextConfig | undefined }): boolean {
  const config = route.config ?? {};
  if (!route.url.startsWith('/api/') || NOT_PUBLIC.test(route.url)) return false;
  if (config.caller !== undefined) return false;
  return config.editor !== true || config.public === true;
}

/**
 * The API described once (docs/api.md, « The description »): an OpenAPI 3.1 document made by
 * @fastify/swagger from the routes' own schemas, which are made from the same Valibot schemas the
 * routes validate with and the clients read (`jsonSchema`, schemas/provider.ts). Registered before
 * every route, so that it sees them all; only the `/api` routes the public may call are described
 * (`isDescribed`: the pages and files are the site's, not an API, and the editor's, the demo's and
 * the other callers' routes are not the public's). Served at GET /api/openapi.json (routes/index.ts).
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
            'La radio, ses émissions, ses résidences, son label, ses évènements et son soutien, pour les sites qui les montrent. Les réponses sont en JSON, sauf les agendas (iCalendar), le flux RSS et le flux du titre à l’antenne ; les textes à montrer et les messages d’erreur sont en français. Les erreurs répondent `{ error, message }`, jamais gardées en cache. Les lectures disent leur `Cache-Control` et, la plupart, un `ETag` faible à renvoyer dans `If-None-Match` (304 sans corps).',
        },
      },
      transform: ({ schema, url, route }) => ({
        schema: isDescribed({ url, config: route.config }) ? schema : { ...schema, hide: true },
        url,
      }),
      // What an integrator reads beside the shapes: summaries, answers, caching, the demo's examples.
      transformObject: (made) => describe((made as { openapiObject: Document }).openapiObject) as never,
    });
  },
  { name: 'openapi' },
);
