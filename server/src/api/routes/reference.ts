import { createReadStream, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError } from '../../http/errors';

/** The API's reference page (docs/api.md, « The reference page »): a page of the site, not of the API. */
export const REFERENCE_PATH = '/api/docs';

const require = createRequire(import.meta.url);
/** Scalar's API Reference, as its package ships it built for the browser. */
const scalarDist = dirname(require.resolve('@scalar/api-reference/style.css'));
const scalarVersion = (require(join(scalarDist, '..', 'package.json')) as { version: string }).version;
/** Its files under an address of their version, so that each is kept a year (a new version, a new address). */
const SCALAR = `/docs/scalar/${scalarVersion}`;

/**
 * What the page asks of Scalar: the description at `/api/openapi.json`, in French, and nothing from
 * any other origin (no fonts of Scalar's, no telemetry, no request client and its proxy, no
 * developer tools, no agent or MCP buttons). A file of its own: the site's CSP runs no inline script.
 */
const START = `import { createApiReference } from '${REFERENCE_PATH}/scalar/${scalarVersion}/browser/standalone.esm.js';

createApiReference('#reference', {
  url: '/api/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  operationTitleSource: 'summary',
  localization: { locale: 'fr' },
  theme: 'default',
});
`;

const TITLE = 'Référence de l’API';

/** The files of Scalar's that the page loads, by their name under its `dist/`, with their type. */
function scalarFiles(): Map<string, string> {
  const files = new Map([
    ['style.css', 'text/css; charset=utf-8'],
    ['browser/standalone.esm.js', 'text/javascript; charset=utf-8'],
  ]);
  for (const chunk of readdirSync(join(scalarDist, 'browser', 'chunks'))) {
    if (chunk.endsWith('.js')) files.set(`browser/chunks/${chunk}`, 'text/javascript; charset=utf-8');
  }
  return files;
}

/** The page: Scalar's sheet as a file (its script then adds none inline), the reference, the document's address. */
function page(): string {
  return `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${TITLE}</title>
    <meta name="description" content="Les routes publiques de l’API du collectif, décrites en OpenAPI 3.1, pour les sites qui les intègrent." />
    <link rel="stylesheet" href="${REFERENCE_PATH}/scalar/${scalarVersion}/style.css" />
    <script type="module" src="${REFERENCE_PATH}/reference.js"></script>
  </head>
  <body>
    <noscript>
      <p>La référence se lit avec JavaScript. La description elle-même : <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
    </noscript>
    <div id="reference"></div>
  </body>
</html>
`;
}

/**
 * GET /api/docs: the reference an integrator reads (docs/api.md, « The reference page »), drawn by
 * Scalar's API Reference from the site's own files, under the site's Content-Security-Policy.
 * Registered in the /api scope; `isDescribed` keeps it out of the description.
 */
const reference: FastifyPluginCallback = (app, _options, done) => {
  const html = page();
  app.get('/docs', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').type('text/html; charset=utf-8').send(html),
  );
  app.get('/docs/reference.js', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').type('text/javascript; charset=utf-8').send(START),
  );
  // Scalar's script, its chunks and its sheet; never its source maps nor any other file.
  const files = scalarFiles();
  app.get(`${SCALAR}/*`, async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const type = files.get(name);
    if (type === undefined)
      throw new ApiHttpError(404, 'not_found', 'Ce fichier de la référence de l’API n’existe pas.');
    return reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .type(type)
      .send(createReadStream(join(scalarDist, name)));
  });
  done();
};

export default reference;
