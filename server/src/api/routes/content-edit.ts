import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { mayEdit, kindsOf, type Editor } from '../../content/editors';
import { CONTENT_KIND_NAMES, isContentKind, type ContentKind } from '../../content/kinds';
import {
  ContentConflict,
  ContentInvalid,
  ContentUnknown,
  ContentUnwritable,
  type ContentVersion,
} from '../../content/store';
import { ApiHttpError } from '../errors';
import { JSON_TYPE } from '../plugins/representations';
import type { ValibotJsonTypeProvider } from '../schemas/provider';
import { routeSchemas } from '../schemas/routes';
import { servedContent } from './content';

/**
 * The content's writes (docs/content.md, « Editing »): its history, an earlier version, a save of a
 * whole kind or of one residence, a restore. Every write is checked against the editor's rights
 * and the kind's schema, and carries the XSRF header (the /api scope's rule); every change and
 * every refusal is logged with the account. Who writes is a volunteer's session, or the admin's
 * token (ADMIN_TOKEN) with an admin's rights (routes/editor.ts).
 */
const contentEdit: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const editorOf = (request: FastifyRequest) => app.editorOf(request);

  function kindOf(name: string): ContentKind {
    if (!isContentKind(name)) {
      throw new ApiHttpError(404, 'not_found', `Contenu inconnu : ${CONTENT_KIND_NAMES.join(', ')} existent.`);
    }
    return name;
  }

  function allowed(request: FastifyRequest, editor: Editor, kind: ContentKind, entry?: string): void {
    if (mayEdit(editor, kind, entry)) return;
    request.log.warn({ account: editor.account, kind, entry }, 'contenu : écriture refusée, hors de ses droits');
    throw new ApiHttpError(403, 'forbidden', 'Ce compte ne peut pas modifier ce contenu.');
  }

  /** The residences with this one put in its place (or added at the end when it is new). */
  function withEntry(id: string, entry: unknown): unknown[] {
    const present = app.content.current('residences').data as { id: string }[];
    const at = present.findIndex((residence) => residence.id === id);
    return at === -1 ? [...present, entry] : present.map((residence, i) => (i === at ? entry : residence));
  }

  /** A save's outcome, or its refusal said in French with what the editor needs to go on. */
  function saved(request: FastifyRequest, reply: FastifyReply, editor: Editor, write: () => ContentVersion) {
    try {
      const { data: _data, ...version } = write();
      request.log.info({ account: editor.account, kind: version.kind, version: version.id }, 'contenu enregistré');
      return reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send({ version });
    } catch (error) {
      if (error instanceof ContentInvalid) {
        request.log.warn({ account: editor.account, problems: error.problems }, 'contenu refusé par son schéma');
        return reply.code(400).send({
          error: 'invalid',
          message: 'Le contenu a des erreurs : rien n’a été enregistré.',
          problems: error.problems,
        });
      }
      if (error instanceof ContentConflict) {
        request.log.warn({ account: editor.account, current: error.current.id }, 'contenu : conflit de versions');
        return reply.code(409).send({
          error: 'conflict',
          message: `Modifié entre-temps par ${error.current.by} : comparez avec la version actuelle avant d’enregistrer.`,
          current: error.current,
        });
      }
      if (error instanceof ContentUnwritable) {
        request.log.error({ account: editor.account, reason: error.reason }, 'contenu : dossier non inscriptible');
        throw new ApiHttpError(
          503,
          'unwritable',
          'Le contenu ne peut pas être enregistré pour le moment : rien n’a changé sur le site.',
        );
      }
      if (error instanceof ContentUnknown) throw new ApiHttpError(404, 'not_found', 'Cette version n’existe pas.');
      throw error;
    }
  }

  app.get('/content/:kind/history', { schema: { params: routeSchemas.contentParams } }, async (request, reply) => {
    const editor = await editorOf(request);
    const kind = kindOf(request.params.kind);
    if (!kindsOf(editor).includes(kind)) allowed(request, editor, kind);
    return reply
      .header('Cache-Control', 'no-store')
      .type(JSON_TYPE)
      .send({ current: app.content.current(kind).id, versions: app.content.history(kind) });
  });

  app.get(
    '/content/:kind/versions/:id',
    { schema: { params: routeSchemas.contentVersionParams } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const kind = kindOf(request.params.kind);
      if (!kindsOf(editor).includes(kind)) allowed(request, editor, kind);
      try {
        return await reply
          .header('Cache-Control', 'no-store')
          .type(JSON_TYPE)
          .send(app.content.version(kind, request.params.id));
      } catch (error) {
        if (error instanceof ContentUnknown) throw new ApiHttpError(404, 'not_found', 'Cette version n’existe pas.');
        throw error;
      }
    },
  );

  app.put(
    '/content/:kind',
    { schema: { params: routeSchemas.contentParams, body: routeSchemas.contentSave } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const kind = kindOf(request.params.kind);
      allowed(request, editor, kind);
      const { data, basedOn } = request.body;
      return saved(request, reply, editor, () =>
        app.content.save(kind, data, { by: editor.account, ...(basedOn === undefined ? {} : { basedOn }) }),
      );
    },
  );

  app.put(
    '/content/residences/:id',
    { schema: { params: routeSchemas.residenceParams, body: routeSchemas.residenceSave } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const { id } = request.params;
      allowed(request, editor, 'residences', id);
      const { entry, basedOn } = request.body;
      if ((entry as { id?: unknown }).id !== id) {
        throw new ApiHttpError(400, 'bad_request', `L’identifiant de la résidence doit rester « ${id} ».`);
      }
      return saved(request, reply, editor, () =>
        app.content.save('residences', withEntry(id, entry), {
          by: editor.account,
          entry: id,
          ...(basedOn === undefined ? {} : { basedOn }),
        }),
      );
    },
  );

  /**
   * A preview (docs/content.md, « Preview »): the content as visitors would get it once saved
   * (checked by its schema, a description made safe), written nowhere. The editor hands it to the
   * public page it shows in a frame. Only for a kind the editor may save, so a preview is never
   * more than what a save would show.
   */
  function previewed(request: FastifyRequest, reply: FastifyReply, editor: Editor, kind: ContentKind, data: unknown) {
    try {
      app.content.check(kind, data);
    } catch (error) {
      if (!(error instanceof ContentInvalid)) throw error;
      request.log.info({ account: editor.account, kind }, 'aperçu refusé par le schéma');
      return reply.code(400).send({
        error: 'invalid',
        message: 'Le contenu a des erreurs : l’aperçu ne peut pas le montrer.',
        problems: error.problems,
      });
    }
    return reply
      .header('Cache-Control', 'no-store')
      .type(JSON_TYPE)
      .send({ data: servedContent(kind, data) });
  }

  app.post(
    '/content/:kind/preview',
    { schema: { params: routeSchemas.contentParams, body: routeSchemas.contentPreview } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const kind = kindOf(request.params.kind);
      allowed(request, editor, kind);
      return previewed(request, reply, editor, kind, request.body.data);
    },
  );

  app.post(
    '/content/residences/:id/preview',
    { schema: { params: routeSchemas.residenceParams, body: routeSchemas.residencePreview } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const { id } = request.params;
      allowed(request, editor, 'residences', id);
      const { entry } = request.body;
      if ((entry as { id?: unknown }).id !== id) {
        throw new ApiHttpError(400, 'bad_request', `L’identifiant de la résidence doit rester « ${id} ».`);
      }
      return previewed(request, reply, editor, 'residences', withEntry(id, entry));
    },
  );

  app.post(
    '/content/:kind/restore',
    { schema: { params: routeSchemas.contentParams, body: routeSchemas.contentRestore } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const kind = kindOf(request.params.kind);
      allowed(request, editor, kind);
      return saved(request, reply, editor, () => app.content.restore(kind, request.body.id, editor.account));
    },
  );
  done();
};

export default contentEdit;
