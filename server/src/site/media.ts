import fp from 'fastify-plugin';
import type { FastifyPluginCallback } from 'fastify';

/** A year, in milliseconds: a picture's name changes with its content. */
const A_YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The pictures editors upload, `GET /media/<name>` (docs/content.md, « Pictures »), from
 * <CONTENT_DIR>/pictures/ as the built files are sent (site/files.ts), but cached for a year and
 * `immutable`: a name is its content's hash. A name of any other shape (a path, `..`) is unknown.
 * With REDIS_URL, a picture another instance stored is taken from Redis first.
 */
const media: FastifyPluginCallback = (app, _options, done) => {
  app.get<{ Params: { file: string } }>('/media/:file', async (request, reply) => {
    const { file } = request.params;
    let here: boolean;
    try {
      here = await app.pictures.has(file);
    } catch (error) {
      request.log.warn(
        { file, reason: error instanceof Error ? error.message : String(error) },
        'image : Redis injoignable',
      );
      // nginx then asks the next instance (proxy_next_upstream), which may have it.
      return reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Image momentanément indisponible : réessayez dans un instant.');
    }
    if (!here) {
      reply.callNotFound();
      return reply;
    }
    // send's own Cache-Control, written after the site's files' rule (a day for images).
    return reply.sendFile(file, app.pictures.dir, { cacheControl: true, maxAge: A_YEAR_MS, immutable: true });
  });
  done();
};

export const siteMedia = fp(media, { name: 'site-media', dependencies: ['site-files', 'sources'] });
