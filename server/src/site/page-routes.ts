import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { REMOTE_PARTS, urlPrefix, type PageRef, type PartName } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { PAGE_TABLE_PATH } from '@collectif/shared/boot';
import type { SiteServerConfig } from '../settings/config';
import { createHints, type HintsOptions } from './hints';
import { servedIn } from './files';
import { DOCUMENT_ASSETS } from './render/document';
import { createPageResponder, type Readiness } from './render/responder';
import type { TrialOutcome } from '../deploy/trial';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the site can answer pages, and which parts render on the server (`/readyz`). */
    siteReadiness: () => Promise<Readiness>;
    /** Tries a part's new version before it goes live (docs/deploy.md, « The trial »). */
    tryPart: (part: PartName, dir: string, pages: readonly PageRef[]) => Promise<TrialOutcome>;
  }
}

/** Each remote's files are under its own prefix: an unknown address there is not a page. */
const REMOTE_PREFIXES = REMOTE_PARTS.map((part) => urlPrefix(part));

/**
 * Every page of the site (docs/rendering.md): rendered on the server from the parts' server
 * bundles, its model made in one place (render/page-writer.ts) with the page's own hints. `radio`: the
 * radio's run-time settings, written into every page beside the remote map.
 */
const pageRoutesPlugin: FastifyPluginCallback<{
  config: SiteServerConfig;
  radio: RadioSettings;
  /** With teams' deploys: the shell's kept versions too, live first (files.ts). */
  servedDirs?: ((part: PartName) => string[]) | undefined;
}> = (app, { config, radio, servedDirs }, done) => {
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
  const { respond, readiness, trial } = createPageResponder({
    app,
    config,
    radio,
    assetsPath: join(config.distDirs.shell, DOCUMENT_ASSETS),
    hints,
  });
  app.decorate('siteReadiness', readiness);
  app.decorate('tryPart', trial);

  // Every address no other route takes, GET or HEAD (Fastify answers HEAD without the body): the
  // page the table of pages names (deep links, reloads), else a file of the shell, else home.
  // The API's, the embed's and the remotes' own addresses that match nothing are not pages.
  const pages = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/embed/') || REMOTE_PREFIXES.some((p) => path.startsWith(p))) {
      reply.callNotFound();
      return reply;
    }
    const file = path.slice(1);
    const dir = servedDirs === undefined ? undefined : servedIn(servedDirs('shell'), file);
    return respond(request, reply, path, {
      file: () => (dir === undefined || dir === null ? reply.sendFile(file) : reply.sendFile(file, dir)),
    });
  };
  // The table of pages, which a page no longer carries (docs/rendering.md, « The document »): its
  // loader asks for it with the scripts. Revalidated at each visit (an ETag per version of the
  // remotes' declarations), kept 10 s by a shared cache as the pages are; not stale-while-revalidate,
  // which made Chromium ask for it again each time the shell read the loader's copy. A table that
  // lacks a remote's pages is not kept, as its pages are not.
  app.get(PAGE_TABLE_PATH, async (_request, reply) => {
    const { pages: table, version, complete } = await app.sitePages();
    return reply.representation(`site|pages|${version}`, () => JSON.stringify(table), {
      type: 'application/json; charset=utf-8',
      cacheControl: complete ? 'public, max-age=0, s-maxage=10' : 'no-store',
    });
  });
  app.get('/', pages);
  app.get('/*', pages);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    return reply.code(404).send({ error: 'not_found', message: `Introuvable : ${path}` });
  });
  done();
};

export const sitePageRoutes = fp(pageRoutesPlugin, {
  name: 'site-page-routes',
  dependencies: ['site-files', 'site-pages', 'representations'],
});
