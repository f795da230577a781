import type { FastifyPluginCallback } from 'fastify';
import { safeHtml } from '@collectif/shared/build/safe-html.cjs';
import { CONTENT_KIND_NAMES, isContentKind } from '../../content/kinds';
import { ApiHttpError } from '../errors';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';

/**
 * GET /api/content/:kind: the current version of a kind of content volunteers edit (residences,
 * releases, team, about, slides; docs/content.md), as its schema describes it, with the version
 * as its ETag. Revalidated at each use, so that a saved change is seen at once; who saved it is
 * not said (visitors see no account).
 */
/**
 * What visitors get of a kind: a residence's description keeps only the emphasis and links the
 * site allows (docs/rendering.md, « Safe HTML »), whatever a save or a file holds; the pages show it
 * as HTML. Made once per version (the representation is kept by its key).
 */
export function servedContent(kind: string, data: unknown): unknown {
  if (kind !== 'residences' || !Array.isArray(data)) return data;
  return data.map((entry: { description: string }) => ({ ...entry, description: safeHtml(entry.description) }));
}

const content: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  app.get(
    '/content/:kind',
    { schema: { params: routeSchemas.contentParams, response: { '4xx': routeSchemas.error } } },
    async (request, reply) => {
      const { kind } = request.params;
      if (!isContentKind(kind)) {
        throw new ApiHttpError(404, 'not_found', `Contenu inconnu : ${CONTENT_KIND_NAMES.join(', ')} existent.`);
      }
      const { id, data } = app.content.current(kind);
      return reply.representation(`content|${kind}|${id}`, () => JSON.stringify(servedContent(kind, data)), {
        cacheControl: 'no-cache',
      });
    },
  );
  done();
};

export default content;
