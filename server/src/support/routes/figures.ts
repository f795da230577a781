import type { FastifyInstance } from 'fastify';
import type { SupportFigures } from '@collectif/shared/schemas';
import { ApiHttpError } from '../../http/errors';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';
import { supportContent } from '../links';
import { noStore, yearOf, type SupportService } from '../service';

/**
 * GET /api/editor/figures/support, for signed-in editors (docs/support.md): a resident
 * their residence's gifts this year (403 for another's), an admin every residence's, with the sums.
 */
export function figuresRoute(instance: FastifyInstance, service: SupportService): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { counts, residences, progressNow } = service;
  app.get(
    '/editor/figures/support',
    {
      config: { editor: true },
      schema: {
        querystring: routeSchemas.supportFiguresQuery,
        response: { 200: routeSchemas.supportFigures, '4xx': routeSchemas.error },
      },
    },
    async (request, reply) => {
      const editor = await app.editorOf(request);
      const asked = request.query.residence;
      noStore(reply);
      if (editor.role === 'residence' && asked !== undefined && asked !== editor.residence) {
        throw new ApiHttpError(403, 'forbidden', 'Vous ne voyez que les chiffres de votre résidence.');
      }
      const { year } = yearOf(app.clock());
      const months = Object.entries((await counts.read()).months).filter(([key]) => key.startsWith(`${String(year)}-`));
      const figures = new Map<string, { donations: number; sum: number }>();
      for (const [, month] of months) {
        for (const [id, each] of Object.entries(month.residences)) {
          const sum = figures.get(id) ?? { donations: 0, sum: 0 };
          figures.set(id, { donations: sum.donations + each.donations, sum: sum.sum + each.sum });
        }
      }
      const ids =
        editor.role === 'admin'
          ? asked === undefined
            ? residences().map((entry) => entry.id)
            : [asked]
          : editor.role === 'residence' && editor.residence !== undefined
            ? [editor.residence]
            : [];
      const settings = supportContent(app);
      const progress = await progressNow();
      const answer: SupportFigures = {
        year,
        members: progress?.year === year ? progress.members : null,
        ...(settings.goal === undefined ? {} : { goal: settings.goal }),
        residences: ids.map((id) => ({
          id,
          donations: figures.get(id)?.donations ?? 0,
          // The sums are the admins' only.
          ...(editor.role === 'admin' ? { sum: figures.get(id)?.sum ?? 0 } : {}),
        })),
      };
      return reply.send(answer);
    },
  );
}
