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
import { contentSecurityPolicy, inlineHash, serializePolicy, withHashes } from './headers';

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
const FRAME_STYLE_HASH = inlineHash(FRAME_STYLE);

/** The framed page for `query`: the script, the element with the choices as attributes. */
export function embedFramePage(query: URLSearchParams): string {
  const options = readEmbedOptions((name) => query.get(name));
  const title = embedTitle(siteConfig.name, options.source);
  return `<!doctype html>
<html lang="fr" data-collectif-cadre>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/assets/images/logo.svg" type="image/svg+xml">
<style>${FRAME_STYLE}</style>
<script src="${EMBED_SCRIPT_PATH}" defer></script>
</head>
<body>
<main>
<h1 class="cache">${escapeHtml(title)}</h1>
${embedElement('/api', options)}
</main>
</body>
</html>
`;
}

/** The site's policy, but framable by any page, with the framed page's one style allowed by its hash. */
export function embedFramePolicy(remotes: RemotesConfig, radio: RadioSettings): string {
  const directives = withHashes(contentSecurityPolicy(remotes, radio), 'style-src', [FRAME_STYLE_HASH]);
  directives['frame-ancestors'] = ['*'];
  return serializePolicy(directives);
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
    // helmet wrote the site's own rules, which forbid framing: this page is made to be framed.
    reply.removeHeader('x-frame-options');
    return reply
      .header('content-security-policy', policy)
      .header('cache-control', 'public, max-age=300')
      .type('text/html; charset=utf-8')
      .send(embedFramePage(query));
  });
  done();
};
