import type { FastifyPluginCallback } from 'fastify';
import {
  EMBED_FRAME_PATH,
  EMBED_SCRIPT_PATH,
  embedElement,
  embedTitle,
  readEmbedOptions,
} from '@collectif/shared/embed';
import { siteConfig, type RadioSettings } from '@collectif/shared/config';
import { escapeHtml } from '@collectif/shared/seo';
import type { RemotesConfig } from '@collectif/shared';
import { contentSecurityPolicy, documentPolicy } from './render/csp';
import { emptyModel, renderDocument, type DocumentModel } from './render/document';

/**
 * The iframe player (docs/embed.md, « The iframe player »): the partner script's player as a page
 * made to be framed by any site. Its choices come from the query string, read as the element reads
 * its attributes; what cannot be read takes its default. This page, and no other, may be framed
 * anywhere (`frame-ancestors *`, no X-Frame-Options).
 */

/**
 * The page's only style: no margin, the player's background to the frame's edges, and the heading
 * that names the frame for screen readers kept out of sight.
 */
const FRAME_STYLE =
  'html,body{margin:0;background:transparent}' +
  '.cache{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}';

/** The framed page for `query`, as a model: the script, the element with the choices as attributes. */
export function embedFrameModel(query: URLSearchParams): DocumentModel {
  const options = readEmbedOptions((name) => query.get(name));
  const title = embedTitle(siteConfig.name, options.source);
  return {
    ...emptyModel({ html: `<main><h1 class="cache">${escapeHtml(title)}</h1>${embedElement('/api', options)}</main>` }),
    kind: 'frame',
    head: [{ tag: 'title', attributes: [], text: title }],
    sheets: [{ href: null, css: FRAME_STYLE }],
    scripts: [EMBED_SCRIPT_PATH],
  };
}

/** The site's policy, but framable by any page, with the framed page's one style allowed by its hash. */
export function embedFramePolicy(remotes: RemotesConfig, radio: RadioSettings): string {
  return documentPolicy(embedFrameModel(new URLSearchParams()), {
    ...contentSecurityPolicy(remotes, radio),
    'frame-ancestors': ['*'],
  });
}

export const embedFramePlugin: FastifyPluginCallback<{ remotes: RemotesConfig; radio: RadioSettings }> = (
  app,
  { remotes, radio },
  done,
) => {
  const policy = embedFramePolicy(remotes, radio);
  app.get(EMBED_FRAME_PATH, async (request, reply) => {
    const mark = request.url.indexOf('?');
    const query = new URLSearchParams(mark === -1 ? '' : request.url.slice(mark + 1));
    // helmet's policy forbids framing (`frame-ancestors 'self'`; no X-Frame-Options is sent,
    // docs/server.md): this page, made to be framed, replaces it with its own.
    return reply
      .header('content-security-policy', policy)
      .header('cache-control', 'public, max-age=300')
      .type('text/html; charset=utf-8')
      .send(renderDocument(embedFrameModel(query)));
  });
  done();
};
