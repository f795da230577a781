import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { REMOTE_PARTS, urlPrefix } from '@collectif/shared';
import type { SiteServerConfig } from '../config';
import { cacheControlFor, variesByEncoding } from './headers';

/** `path` is the file sent: `main.[hash].js.br` when the client accepts brotli (docs/server.md). */
function setHeaders(res: { setHeader: (name: string, value: string) => void }, path: string): void {
  res.setHeader('Cache-Control', cacheControlFor(path));
  if (variesByEncoding(path)) res.setHeader('Vary', 'accept-encoding'); // as @fastify/compress writes it, so it is not added twice
  // Remote assets may be loaded by a shell or a partner page on another origin.
  res.setHeader('Access-Control-Allow-Origin', '*');
}

const staticOptions = { preCompressed: true, setHeaders, cacheControl: false, index: false, wildcard: true } as const;

/**
 * The site's files: each remote's built dist/ under its own prefix (docs/parts.md), the generated
 * images, the embeddable player when built, the shell's files (sent by the pages' route, after the
 * page table: `reply.sendFile`), and the remote map.
 */
const filesPlugin: FastifyPluginAsync<{ config: SiteServerConfig }> = async (app, { config }) => {
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
};

export const siteFiles = fp(filesPlugin, { name: 'site-files' });
