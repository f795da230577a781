import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { REMOTE_PARTS, urlPrefix } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import type { SiteServerConfig } from '../config';
import { cacheControlFor, variesByEncoding } from './headers';
import { createHints, type HintsOptions } from './hints';
import { DOCUMENT_ASSETS } from './render/document';
import { createPageResponder } from './render/responder';

/** Each remote's built dist/ is served under its own prefix (docs/parts.md). */
const REMOTE_PREFIXES = REMOTE_PARTS.map((part) => urlPrefix(part));

/** `path` is the file sent: `main.[hash].js.br` when the client accepts brotli (docs/server.md). */
function setHeaders(res: { setHeader: (name: string, value: string) => void }, path: string): void {
  res.setHeader('Cache-Control', cacheControlFor(path));
  if (variesByEncoding(path)) res.setHeader('Vary', 'accept-encoding'); // as @fastify/compress writes it, so it is not added twice
  // Remote assets may be loaded by a shell or a partner page on another origin.
  res.setHeader('Access-Control-Allow-Origin', '*');
}

const staticOptions = { preCompressed: true, setHeaders, cacheControl: false, index: false, wildcard: true } as const;

/**
 * Serves every built part, the generated images, the remote map and the SPA fallback. `radio`: the
 * radio's run-time settings, written into every page beside the remote map.
 */
const sitePlugin: FastifyPluginAsync<{ config: SiteServerConfig; radio: RadioSettings }> = async (
  app,
  { config, radio },
) => {
  for (const part of REMOTE_PARTS) {
    await app.register(fastifyStatic, {
      ...staticOptions,
      root: config.distDirs[part.name],
      prefix: urlPrefix(part),
      decorateReply: false,
    });
  }
  await app.register(fastifyStatic, {
    ...staticOptions,
    root: config.assetsDir,
    prefix: '/assets/',
    decorateReply: false,
  });
  if (existsSync(config.distDirs.embed)) {
    await app.register(fastifyStatic, {
      ...staticOptions,
      root: config.distDirs.embed,
      prefix: '/embed/',
      decorateReply: false,
    });
  }
  // The shell's files are sent by the pages' route below (`reply.sendFile`), after the page table.
  await app.register(fastifyStatic, {
    ...staticOptions,
    root: config.distDirs.shell,
    prefix: '/',
    decorateReply: true,
    serve: false,
  });

  app.get(
    '/remotes.json',
    { schema: { response: { 200: { type: 'object', additionalProperties: { type: 'string' } } } } },
    (_req, reply) => reply.header('Cache-Control', 'no-cache').send(config.remotes),
  );

  // Liveness: the process answers. Readiness: it can answer pages, and which parts render on the
  // server (docs/rendering.md, « Readiness »).
  app.get('/healthz', (_req, reply) => reply.send({ status: 'ok' }));

  const hints = createHints({
    remotes: config.remotes,
    served: Object.fromEntries(
      REMOTE_PARTS.map((part) => [part.name, { prefix: urlPrefix(part), dir: config.distDirs[part.name] }]),
    ) as HintsOptions['served'],
    assetsDir: config.assetsDir,
    warn: (message) => {
      app.log.warn(message);
    },
  });
  // Every page: rendered on the server from the parts' server bundles (docs/rendering.md), its
  // model made in one place (render/model.ts) with the page's own hints.
  const { respond, readiness } = createPageResponder({
    app,
    config,
    radio,
    assetsPath: join(config.distDirs.shell, DOCUMENT_ASSETS),
    hints,
  });

  app.get('/readyz', async (_request, reply) => {
    const state = await readiness();
    return reply
      .header('Cache-Control', 'no-store')
      .code(state.status === 'ready' ? 200 : 503)
      .send(state);
  });

  // Every address no other route takes, GET or HEAD (Fastify answers HEAD without the body): the
  // page the table of pages names (deep links, reloads), else a file of the shell, else home.
  // The API's, the embed's and the remotes' own addresses that match nothing are not pages.
  const pages = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/embed/') || REMOTE_PREFIXES.some((p) => path.startsWith(p))) {
      reply.callNotFound();
      return reply;
    }
    return respond(request, reply, path, { file: () => reply.sendFile(path.slice(1)) });
  };
  app.get('/', pages);
  app.get('/*', pages);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    return reply.code(404).send({ error: 'not_found', message: `Introuvable : ${path}` });
  });
};

export const siteStatic = fp(sitePlugin, { name: 'site-static' });
