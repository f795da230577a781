import type { FastifyPluginCallback } from 'fastify';
import type { Residence } from '@collectif/shared';
import { findResidence } from '@collectif/shared/addresses';
import { residenceSummary } from '@collectif/shared/schemas';
import { safeHtml } from '@collectif/shared/build/safe-html.cjs';
import { CONTENT_KIND_NAMES, isContentKind } from '../kinds';
import { ApiHttpError } from '../../http/errors';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';

/**
 * GET /api/content/:kind: the current version of a kind of content volunteers edit (residences,
 * releases, team, about, slides; docs/content.md), as its schema describes it, with the version
 * as its ETag. The residences take two filters: `?view=summary`, as a list shows them (no description,
 * no links), and `?id=`, the one an address names (a list of one, or none). Revalidated at each use, so that a saved change is seen at once; who saved it is
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

/** The residence an id names, as a list of one, or none (matched as the pages match an address). */
function oneOf(list: Residence[], id: string): Residence[] {
  const found = findResidence(id, list);
  return found === undefined ? [] : [found];
}

const content: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  app.get(
    '/content/:kind',
    {
      config: { editor: true, public: true },
      schema: {
        params: routeSchemas.contentParams,
        querystring: routeSchemas.contentQuery,
        response: { '4xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const { kind } = request.params;
      if (!isContentKind(kind)) {
        throw new ApiHttpError(404, 'not_found', `Contenu inconnu : ${CONTENT_KIND_NAMES.join(', ')} existent.`);
      }
      const { view, id: wanted } = request.query;
      if (kind !== 'residences' && (view !== undefined || wanted !== undefined)) {
        throw new ApiHttpError(400, 'bad_request', 'Paramètres « view » et « id » : pour les résidences seulement.');
      }
      const { id, data } = app.content.current(kind);
      if (kind !== 'residences') {
        return reply.representation(`content|${kind}|${id}`, () => JSON.stringify(servedContent(kind, data)), {
          cacheControl: 'no-cache',
        });
      }
      // The residences, or the one an address names; whole, or as a list shows them.
      const entries = wanted === undefined ? (data as Residence[]) : oneOf(data as Residence[], wanted);
      const shown = (list: Residence[]) =>
        view === 'summary' ? list.map(residenceSummary) : servedContent(kind, list);
      return reply.representation(
        `content|residences|${id}|${view ?? 'whole'}|${wanted === undefined ? '*' : `=${entries[0]?.id ?? ''}`}`,
        () => JSON.stringify(shown(entries)),
        { cacheControl: 'no-cache' },
      );
    },
  );
  done();
};

export default content;
