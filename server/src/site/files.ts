import { existsSync, statSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { join, normalize } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { REMOTE_PARTS, urlPrefix, type PartName } from '@collectif/shared';
import type { SiteServerConfig } from '../settings/config';
import { cacheControlFor, variesByEncoding } from './headers';

/** `path` is the file sent: `main.[hash].js.br` when the client accepts brotli (docs/server.md). */
function setHeaders(res: { setHeader: (name: string, value: string) => void }, path: string): void {
  res.setHeader('Cache-Control', cacheControlFor(path));
  if (variesByEncoding(path)) res.setHeader('Vary', 'accept-encoding'); // as @fastify/compress writes it, so it is not added twice
  // Remote assets may be loaded by a shell or a partner page on another origin.
  res.setHeader('Access-Control-Allow-Origin', '*');
}

/**
 * The first folder that has a file, or null: a path that leaves the folder (`..`), or names a folder,
 * is in none.
 */
export function servedIn(dirs: readonly string[], file: string): string | null {
  if (file === '' || normalize(file).startsWith('..') || file.includes('\0')) return null;
  for (const dir of dirs) {
    try {
      if (statSync(join(dir, file)).isFile()) return dir;
    } catch {
      // Not in this one.
    }
  }
  return null;
}

const staticOptions = { preCompressed: true, setHeaders, cacheControl: false, index: false, wildcard: true } as const;

/**
 * The site's files: each remote's built dist/ under its own prefix (docs/parts.md), the generated
 * images, the embeddable player when built, the shell's files (sent by the pages' route, after the
 * page table: `reply.sendFile`), and the remote map.
 */
const filesPlugin: FastifyPluginAsync<{
  config: SiteServerConfig;
  /**
   * With teams' deploys: the folders a part's files are served from, its live version first, then
   * the earlier ones kept (docs/deploy.md, « Versions and the switch »): a visitor whose page
   * came with an earlier version still gets its files.
   */
  servedDirs?: ((part: PartName) => string[]) | undefined;
}> = async (app, { config, servedDirs }) => {
  if (servedDirs !== undefined) {
    for (const part of REMOTE_PARTS) {
      const serve = (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
        const file = request.params['*'];
        const dir = servedIn(servedDirs(part.name), file);
        if (dir !== null) return reply.sendFile(file, dir);
        reply.callNotFound();
        return reply;
      };
      app.get(`${urlPrefix(part)}*`, serve);
    }
  }
  for (const part of servedDirs === undefined ? REMOTE_PARTS : []) {
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
