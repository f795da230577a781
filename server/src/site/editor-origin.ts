import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { PageRef } from '@collectif/shared';
import { watchedFile } from '../files/watched-file';
import { editorDocument, unbuiltEditorPage, type EditorPage } from './editor-document';
import { DOCUMENT_ASSETS, readAssetLists } from './render/shell-assets';

export { EDITOR_CONFIG_ID } from '@collectif/shared/editor-config';

/**
 * The editor on an origin of its own (EDITOR_ORIGIN; docs/content.md, « The editor's origin »). A
 * volunteer signs in and writes where no team's code runs: the public origin loads every part's
 * scripts, and any of them acts there as the visitor. One server answers both host names, by the
 * request's `Host`:
 * - the editor's host serves the editor's document (the admin part and the shared package, bundled,
 *   no other part), its files, and the /api reads and writes the editor uses; anything else is sent
 *   to the public origin;
 * - every write there must come from the editor's own pages: its `Origin` is the editor's origin
 *   (sibling host names are the same site, so `SameSite` cookies alone do not tell them apart);
 * - the public host serves no editor page (`/admin…` is redirected to the editor's origin before
 *   any script runs; a browser keeps the fragment, so invitation links already sent still work) and
 *   takes no editor or content write, whatever cookie comes with it.
 */

export interface EditorOriginOptions {
  siteOrigin: string;
  editorOrigin: string;
  /** The admin part's built files: the list of the editor's files is `editor/document.json` there. */
  adminDir: string;
  /** The site's table of pages, for the editor's links to public pages and its preview. */
  pages: () => Promise<readonly PageRef[]>;
}

/** The editor's pages. */
const EDITOR_PAGES = /^\/admin(?:[/?#]|$)/;
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * true: a route the editor uses, answered on the editor's origin too (its sign-in, the content's
     * reads and writes, the XSRF cookie, the reads its forms make: a residence's episodes, the
     * label's releases, the played artists its merges' form searches, the figures it shows).
     */
    editor?: boolean;
  }
}

/** What else the editor's host answers: the admin part's files (the editor's scripts and sheets), health. */
const EDITOR_FILES = /^\/(?:mf-admin\/|healthz$|readyz$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The address a rule is checked on: the route that matched (its pattern, as Fastify's router matched
 * the decoded path), else the decoded path; never the raw URL, whose percent-encoding
 * (`/api/%65ditor/…`) the router decodes before matching. A path that cannot be decoded is checked
 * as it is (no route takes it).
 */
function ruleOf(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern !== undefined && !pattern.includes('*')) return pattern;
  const path = request.url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function refuse(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').send({ error: 'editor_origin', message });
}

const editorOriginPlugin: FastifyPluginCallback<EditorOriginOptions> = (app, options, done) => {
  const { siteOrigin, editorOrigin, adminDir } = options;
  const editorHost = new URL(editorOrigin).host;
  // The list of the editor's files, read again when it changes (the server's one way: watched-file.ts).
  const built = watchedFile(
    join(adminDir, 'editor', DOCUMENT_ASSETS),
    (text) =>
      readAssetLists(JSON.parse(text), {
        warn: (message) => {
          app.log.warn(`Document de l'éditeur : ${message} ; adresse ignorée`);
        },
      }),
    {
      what: "Liste des fichiers de l'éditeur",
      warn: (message) => {
        app.log.warn(message);
      },
    },
  );

  /** The editor's page with its configuration written in, and its policy; null while it is not built. */
  async function editorPage(): Promise<EditorPage | null> {
    const assets = built();
    if (assets === null) return null;
    try {
      return editorDocument(assets, { publicOrigin: siteOrigin, pages: [...(await options.pages())] });
    } catch (error) {
      app.log.warn(`Document de l'éditeur inutilisable : ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  async function onEditorHost(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    rule: string,
  ): Promise<FastifyReply | undefined> {
    if (!SAFE_METHODS.has(request.method) && request.headers.origin !== editorOrigin) {
      return refuse(reply, 403, `Modification refusée : elle ne vient pas de l'éditeur (${editorOrigin}).`);
    }
    if (EDITOR_PAGES.test(rule) && (request.method === 'GET' || request.method === 'HEAD')) {
      const page = (await editorPage()) ?? unbuiltEditorPage(siteOrigin);
      return reply
        .code(page.status)
        .header('Cache-Control', 'no-store')
        .header('Content-Security-Policy', page.policy)
        .header('Referrer-Policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(page.html);
    }
    // The routes that say `editor: true` (the route table is the one list), the admin part's files,
    // and an /api address no route takes (its 404 is /api's own).
    if (request.routeOptions.config.editor === true || EDITOR_FILES.test(rule)) return undefined;
    const matched = request.routeOptions.url;
    if ((matched === undefined || matched.includes('*')) && /^\/api(?:[/?]|$)/.test(rule)) return undefined;
    // Everything else is the public site's.
    if (request.method === 'GET' || request.method === 'HEAD') return reply.redirect(`${siteOrigin}${path}`, 302);
    return refuse(reply, 404, "Cette adresse n'est pas celle de l'éditeur.");
  }

  function onPublicHost(request: FastifyRequest, reply: FastifyReply, path: string): FastifyReply | undefined {
    if (EDITOR_PAGES.test(path)) {
      if (request.method === 'GET' || request.method === 'HEAD')
        return reply.redirect(`${editorOrigin}${request.url}`, 302);
      return refuse(reply, 404, `L'éditeur est à ${editorOrigin}.`);
    }
    if (
      /^\/api\/editor(?:[/?]|$)/.test(path) ||
      (/^\/api\/content(?:[/?]|$)/.test(path) && !SAFE_METHODS.has(request.method))
    ) {
      return refuse(reply, 403, `Les modifications se font dans l'éditeur, à ${editorOrigin}, pas sur le site public.`);
    }
    return undefined;
  }

  app.addHook('onRequest', async (request, reply) => {
    if (request.host === editorHost) return onEditorHost(request, reply, request.url, ruleOf(request));
    return onPublicHost(request, reply, ruleOf(request));
  });
  // What only the public origin's partners need stays there: the editor's /api allows no other origin.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.host === editorHost) {
      reply.removeHeader('access-control-allow-origin');
      reply.removeHeader('access-control-expose-headers');
    }
    return payload;
  });
  done();
};

export const editorOrigin = fp(editorOriginPlugin, { name: 'editor-origin' });
