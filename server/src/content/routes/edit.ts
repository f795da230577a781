import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { mayEdit, kindsOf, type Editor } from '../editors';
import { CONTENT_KIND_NAMES, isContentKind, withEntry, type ContentKind } from '../kinds';
import { ContentConflict, ContentInvalid, ContentUnknown, ContentUnwritable, type ContentVersion } from '../store';
import { ApiHttpError } from '../../http/errors';
import { JSON_TYPE } from '../../api/plugins/representations';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';
import { servedContent } from './read';
import { entryHistoryPage, historyPage } from '../history';
import { startUpkeep } from '../upkeep';
import { editorLimit } from '../../api/http/editor-limit';
import { tracklistRoutes } from './tracklists';

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

  // Per account, whatever its address, across the instances (docs/content.md, « Bounds »).
  const { limits } = app.apiConfig;
  const writes = editorLimit(app, {
    name: 'ecritures',
    perMinute: limits.editorWritesPerMinute,
    refusal: 'Trop d’enregistrements',
  });
  const previews = editorLimit(app, {
    name: 'apercus',
    perMinute: limits.editorPreviewsPerMinute,
    refusal: 'Trop d’aperçus',
  });
  /** The editor of a save or a restore, counted against its account's limit (429 past it). */
  const writerOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const editor = await editorOf(request);
    await writes(request, reply, editor);
    return editor;
  };
  /** The editor of a preview, counted likewise. */
  const previewerOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const editor = await editorOf(request);
    await previews(request, reply, editor);
    return editor;
  };

  // Old versions pruned, and the pictures the content names kept in Redis, after each save and
  // every hour (docs/content.md, « Pruning »).
  const upkeep = startUpkeep({
    content: app.content,
    pictures: app.pictures,
    rule: app.apiConfig.contentVersions,
    log: {
      warn: (message) => {
        app.log.warn(message);
      },
    },
  });
  app.addHook('onClose', (_instance, closed) => {
    upkeep.stop();
    closed();
  });

  /**
   * A record as `editor` sees it: a resident never sees another editor's name (the repository's
   * `dépôt` is no one's).
   */
  function seenBy<T extends { by: string }>(editor: Editor, record: T): T {
    if (editor.role !== 'residence' || record.by === editor.account || record.by === 'dépôt') return record;
    return { ...record, by: 'un autre éditeur' };
  }

  /** A version as `editor` sees it: for a resident, their residence alone, and no other editor named. */
  function versionSeenBy(editor: Editor, version: ContentVersion): ContentVersion {
    if (editor.role !== 'residence') return version;
    const own = Array.isArray(version.data)
      ? version.data.filter((entry: unknown) => (entry as { id?: unknown }).id === editor.residence)
      : [];
    return { ...seenBy(editor, version), data: own };
  }

  /**
   * A resident writes only a residence that is on the site: one an admin removed comes back only
   * through an admin (a save, a preview or a restore would otherwise add it again).
   */
  function onSite(request: FastifyRequest, editor: Editor, id: string): void {
    if (editor.role !== 'residence') return;
    const present = app.content.current('residences').data as { id: string }[];
    if (present.some((residence) => residence.id === id)) return;
    request.log.warn({ account: editor.account, entry: id }, 'contenu : résidence retirée, écriture refusée');
    throw new ApiHttpError(
      403,
      'removed',
      'Cette résidence a été retirée du site : seul un administrateur peut la remettre en ligne.',
    );
  }

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
  const withResidence = (id: string, entry: unknown, present = app.content.current('residences').data) =>
    withEntry('residences', id, entry, present);

  /** A save of one residence, made again on the current list each time it is prepared. */
  const rebased = (id: string, entry: unknown) => ({
    entry: id,
    rebase: (present: unknown) => withResidence(id, entry, present),
  });

  /** A save's outcome, or its refusal said in French with what the editor needs to go on. */
  async function saved(
    request: FastifyRequest,
    reply: FastifyReply,
    editor: Editor,
    write: () => Promise<ContentVersion>,
    shown: (editor: Editor, version: ContentVersion) => ContentVersion = versionSeenBy,
  ) {
    try {
      const { data: _data, ...version } = await write();
      request.log.info({ account: editor.account, kind: version.kind, version: version.id }, 'contenu enregistré');
      upkeep.saved(version.kind as ContentKind);
      return await reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send({ version });
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
          message: `Modifié entre-temps par ${seenBy(editor, error.current).by} : comparez avec la version actuelle avant d’enregistrer.`,
          current: shown(editor, error.current),
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

  /**
   * A page of the history (docs/content.md, « The history, in pages »): `?limit=` versions (20, at
   * most 50) older than `?before=`, newest first, with `next`, the `before` of the next page (null
   * on the last). A resident gets only the versions that changed their residence.
   */
  app.get(
    '/content/:kind/history',
    {
      config: { editor: true },
      schema: { params: routeSchemas.contentParams, querystring: routeSchemas.contentHistoryQuery },
    },
    async (request, reply) => {
      const editor = await editorOf(request);
      const kind = kindOf(request.params.kind);
      if (!kindsOf(editor).includes(kind)) allowed(request, editor, kind);
      const { before, limit } = request.query;
      const asked = { ...(before === undefined ? {} : { before }), ...(limit === undefined ? {} : { limit }) };
      const page =
        editor.role === 'residence'
          ? await entryHistoryPage(app.content.dir, kind, editor.residence ?? '', asked)
          : await historyPage(app.content.dir, kind, asked);
      return reply
        .header('Cache-Control', 'no-store')
        .type(JSON_TYPE)
        .send({
          current: app.content.current(kind).id,
          versions: page.versions.map((record) => seenBy(editor, record)),
          next: page.next,
        });
    },
  );

  app.get(
    '/content/:kind/versions/:id',
    { config: { editor: true }, schema: { params: routeSchemas.contentVersionParams } },
    async (request, reply) => {
      const editor = await editorOf(request);
      const kind = kindOf(request.params.kind);
      if (!kindsOf(editor).includes(kind)) allowed(request, editor, kind);
      try {
        return await reply
          .header('Cache-Control', 'no-store')
          .type(JSON_TYPE)
          .send(versionSeenBy(editor, app.content.version(kind, request.params.id)));
      } catch (error) {
        if (error instanceof ContentUnknown) throw new ApiHttpError(404, 'not_found', 'Cette version n’existe pas.');
        throw error;
      }
    },
  );

  app.put(
    '/content/:kind',
    { config: { editor: true }, schema: { params: routeSchemas.contentParams, body: routeSchemas.contentSave } },
    async (request, reply) => {
      const editor = await writerOf(request, reply);
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
    { config: { editor: true }, schema: { params: routeSchemas.residenceParams, body: routeSchemas.residenceSave } },
    async (request, reply) => {
      const editor = await writerOf(request, reply);
      const { id } = request.params;
      allowed(request, editor, 'residences', id);
      onSite(request, editor, id);
      const { entry, basedOn } = request.body;
      // A resident's save is based on the version it was checked against, at the latest: one that
      // removed their residence meanwhile (on another instance) is then a conflict, not undone.
      const since = basedOn ?? (editor.role === 'residence' ? app.content.current('residences').id : undefined);
      if ((entry as { id?: unknown }).id !== id) {
        throw new ApiHttpError(400, 'bad_request', `L’identifiant de la résidence doit rester « ${id} ».`);
      }
      return saved(request, reply, editor, () =>
        app.content.save('residences', withResidence(id, entry), {
          by: editor.account,
          ...rebased(id, entry),
          ...(since === undefined ? {} : { basedOn: since }),
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
    { config: { editor: true }, schema: { params: routeSchemas.contentParams, body: routeSchemas.contentPreview } },
    async (request, reply) => {
      const editor = await previewerOf(request, reply);
      const kind = kindOf(request.params.kind);
      allowed(request, editor, kind);
      return previewed(request, reply, editor, kind, request.body.data);
    },
  );

  app.post(
    '/content/residences/:id/preview',
    { config: { editor: true }, schema: { params: routeSchemas.residenceParams, body: routeSchemas.residencePreview } },
    async (request, reply) => {
      const editor = await previewerOf(request, reply);
      const { id } = request.params;
      allowed(request, editor, 'residences', id);
      onSite(request, editor, id);
      const { entry } = request.body;
      if ((entry as { id?: unknown }).id !== id) {
        throw new ApiHttpError(400, 'bad_request', `L’identifiant de la résidence doit rester « ${id} ».`);
      }
      return previewed(request, reply, editor, 'residences', withResidence(id, entry));
    },
  );

  app.post(
    '/content/:kind/restore',
    { config: { editor: true }, schema: { params: routeSchemas.contentParams, body: routeSchemas.contentRestore } },
    async (request, reply) => {
      const editor = await writerOf(request, reply);
      const kind = kindOf(request.params.kind);
      allowed(request, editor, kind);
      return saved(request, reply, editor, () => app.content.restore(kind, request.body.id, editor.account));
    },
  );

  /**
   * One residence brought back as it was in an earlier version, the others left as they are now:
   * how a resident restores (docs/content.md, « A resident's history and restores »), never the
   * whole list. The residence must be in that version, and, for a resident, still on the site.
   */
  app.post(
    '/content/residences/:id/restore',
    { config: { editor: true }, schema: { params: routeSchemas.residenceParams, body: routeSchemas.contentRestore } },
    async (request, reply) => {
      const editor = await writerOf(request, reply);
      const { id } = request.params;
      allowed(request, editor, 'residences', id);
      onSite(request, editor, id);
      let earlier: ContentVersion;
      try {
        earlier = app.content.version('residences', request.body.id);
      } catch (error) {
        if (error instanceof ContentUnknown) throw new ApiHttpError(404, 'not_found', 'Cette version n’existe pas.');
        throw error;
      }
      const entry = (earlier.data as { id: string }[]).find((residence) => residence.id === id);
      if (entry === undefined) {
        throw new ApiHttpError(404, 'not_found', 'Cette version ne contient pas cette résidence.');
      }
      const basedOn = app.content.current('residences').id;
      return saved(request, reply, editor, () =>
        app.content.save('residences', withResidence(id, entry), {
          by: editor.account,
          ...rebased(id, entry),
          basedOn,
          restoredFrom: earlier.id,
        }),
      );
    },
  );
  // An episode's tracklist: its save, its removal, its prefill (docs/content.md, « Tracklists »).
  tracklistRoutes(app, { writerOf, saved, seenBy });
  done();
};

export default contentEdit;
