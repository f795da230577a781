import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Episode } from '@collectif/shared';
import { contentProblems, EPISODE_SLUG, tracklistEntrySchema, TRACKS_MAX } from '@collectif/shared/content-schemas';
import { mayEditTracklist, type Editor } from '../editors';
import { REMOVED, withEntry } from '../kinds';
import { playedText } from '../played';
import type { ContentVersion } from '../store';
import { ApiHttpError } from '../../http/errors';
import { editorLimit } from '../../api/http/editor-limit';
import { JSON_TYPE } from '../../api/plugins/representations';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';
import { residenceMatcher } from '../../schedule/residence-of';
import { holdScheduleWorker } from '../../schedule/schedule-worker';
import { SCHEDULE_ZONE } from '../../schedule/expand';

/**
 * An episode's tracklist, written by its residence's resident or an admin (docs/content.md,
 * « Tracklists »): a save of its one entry, its removal, and the prefill from what the radio
 * recorded during its show. Registered by content-edit.ts, whose limits, outcomes and log it shares.
 */

const DAY_MS = 24 * 3600 * 1000;
/** The show an episode replays: the latest of its residence that started within this long before its publication. */
export const SLOT_LOOKBACK_MS = 7 * DAY_MS;

const params = routeSchemas.tracklistParams;
const save = routeSchemas.tracklistSave;

interface Entry {
  episode: string;
  tracks: { start: number; artist: string; title: string; release?: string }[];
}

/** What content-edit.ts lends: its editors counted per minute, and a save's outcome said. */
export interface TracklistHelpers {
  writerOf: (request: FastifyRequest, reply: FastifyReply) => Promise<Editor>;
  saved: (
    request: FastifyRequest,
    reply: FastifyReply,
    editor: Editor,
    write: () => Promise<ContentVersion>,
    shown: (editor: Editor, version: ContentVersion) => ContentVersion,
  ) => Promise<unknown>;
  seenBy: <T extends { by: string }>(editor: Editor, record: T) => T;
}

/** A recorded name as the tracklists take it: as the record keeps it (playedText), without markup signs. */
const trackText = (name: string) => playedText(name.replace(/[<>]+/g, ' ')) || 'Inconnu';

export function tracklistRoutes(app: FastifyInstance, { writerOf, saved, seenBy }: TracklistHelpers): void {
  const api = app.withTypeProvider<ValibotJsonTypeProvider>();
  const prefills = editorLimit(app, {
    name: 'prefill',
    perMinute: app.apiConfig.limits.editorPreviewsPerMinute,
    refusal: 'Trop de pré-remplissages',
  });
  const thread = holdScheduleWorker();
  app.addHook('onClose', () => thread.release());
  const residenceOf = residenceMatcher(app.sources.residences);

  /** The episode of this address, by its own slug (an older long slug is not its address): 404 otherwise. */
  async function episodeOf(slug: string): Promise<Episode> {
    const found = EPISODE_SLUG.test(slug) ? (await app.sources.episodes.get()).value.find(slug) : undefined;
    if (found?.slug !== slug) {
      throw new ApiHttpError(404, 'not_found', 'Émission inconnue : aucune émission du site n’a cette adresse.');
    }
    return found;
  }

  function allowed(request: FastifyRequest, editor: Editor, episode: Episode): void {
    if (mayEditTracklist(editor, episode.residences)) return;
    request.log.warn(
      { account: editor.account, kind: 'tracklists', entry: episode.slug },
      'contenu : écriture refusée, hors de ses droits',
    );
    throw new ApiHttpError(403, 'forbidden', 'Ce compte ne peut pas modifier ce contenu.');
  }

  /** A version as a resident sees it: this episode's list alone, no other editor named. */
  const shownFor =
    (slug: string) =>
    (editor: Editor, version: ContentVersion): ContentVersion => {
      if (editor.role !== 'residence') return version;
      const own = Array.isArray(version.data)
        ? version.data.filter((entry: unknown) => (entry as { episode?: unknown }).episode === slug)
        : [];
      return { ...seenBy(editor, version), data: own };
    };

  const present = () => app.content.current('tracklists').data as Entry[];
  /** The lists with this one in its place (added at the end when new), or without it (REMOVED). */
  const withList = (slug: string, entry: unknown, lists: unknown = present()) =>
    withEntry('tracklists', slug, entry, lists);

  /** The entry's own problems (its rows named from the entry: /tracks/3/start), and rows past the episode's end. */
  function problemsOf(entry: unknown, duration: number): string[] {
    const problems = contentProblems(tracklistEntrySchema, entry, 'tracklists');
    if (problems.length > 0) return problems;
    const seconds = Math.floor(duration);
    if (!(seconds > 0)) return [];
    return (entry as Entry).tracks.flatMap((track, index) =>
      track.start >= seconds
        ? [`tracklists: champ /tracks/${String(index)}/start : après la fin de l’émission (${String(seconds)} s)`]
        : [],
    );
  }

  /**
   * The form's opening: the episode's list as saved (or none) and the version it is in, which a
   * save is then based on. A resident may not read the kind's history: this is their way in.
   */
  api.get(
    '/content/tracklists/:episode/current',
    { config: { editor: true }, schema: { params } },
    async (request, reply) => {
      const editor = await app.editorOf(request);
      const episode = await episodeOf(request.params.episode);
      allowed(request, editor, episode);
      const { id, data } = app.content.current('tracklists');
      const entry = (data as Entry[]).find((one) => one.episode === episode.slug) ?? null;
      return reply
        .header('Cache-Control', 'no-store')
        .type(JSON_TYPE)
        .send({ version: id, duration: Math.max(0, Math.floor(episode.duration)), entry });
    },
  );

  api.put(
    '/content/tracklists/:episode',
    { config: { editor: true }, schema: { params, body: save } },
    async (request, reply) => {
      const editor = await writerOf(request, reply);
      const slug = request.params.episode;
      const episode = await episodeOf(slug);
      allowed(request, editor, episode);
      const { entry, basedOn } = request.body;
      if (entry.episode !== slug) {
        throw new ApiHttpError(400, 'bad_request', `L’émission de la liste doit rester « ${slug} ».`);
      }
      const problems = problemsOf(entry, episode.duration);
      if (problems.length > 0) {
        request.log.warn({ account: editor.account, problems }, 'contenu refusé par son schéma');
        return reply.code(400).send({
          error: 'invalid',
          message: 'Le contenu a des erreurs : rien n’a été enregistré.',
          problems,
        });
      }
      // A resident's save is based on the version it was checked against, at the latest.
      const since = basedOn ?? (editor.role === 'residence' ? app.content.current('tracklists').id : undefined);
      return saved(
        request,
        reply,
        editor,
        () =>
          app.content.save('tracklists', withList(slug, entry), {
            by: editor.account,
            entry: slug,
            rebase: (lists) => withList(slug, entry, lists),
            ...(since === undefined ? {} : { basedOn: since }),
          }),
        shownFor(slug),
      );
    },
  );

  api.delete(
    '/content/tracklists/:episode',
    { config: { editor: true }, schema: { params } },
    async (request, reply) => {
      const editor = await writerOf(request, reply);
      const slug = request.params.episode;
      const listed = present().some((one) => one.episode === slug);
      // An admin removes a list whose episode left the feed; a resident only one of their episodes.
      if (!(editor.role === 'admin' && listed)) allowed(request, editor, await episodeOf(slug));
      if (!listed) throw new ApiHttpError(404, 'not_found', 'Cette émission n’a pas de liste de titres.');
      const basedOn = app.content.current('tracklists').id;
      return saved(
        request,
        reply,
        editor,
        () =>
          app.content.save('tracklists', withList(slug, REMOVED), {
            by: editor.account,
            entry: slug,
            rebase: (lists) => withList(slug, REMOVED, lists),
            basedOn,
          }),
        shownFor(slug),
      );
    },
  );

  /**
   * The slot an episode replays: its residence's latest show in the programme that started before
   * its publication, within 7 days; else the episode's length ending at its publication.
   */
  async function slotOf(episode: Episode, published: number) {
    const lengthMs = Math.max(0, Math.floor(episode.duration)) * 1000;
    const byDuration = { source: 'duree' as const, from: published - lengthMs, to: published };
    try {
      const calendars = await app.sources.schedule.get();
      const found = await thread.worker.expand(calendars.value, {
        from: published - SLOT_LOOKBACK_MS,
        to: published,
        defaultZone: SCHEDULE_ZONE,
      });
      const shows = found
        .flatMap((one) => one.occurrences)
        .filter((show) => !show.allDay && Date.parse(show.start) < published)
        .filter((show) => {
          const residence = residenceOf(show.title);
          return residence !== null && episode.residences.includes(residence);
        })
        .sort((a, b) => a.start.localeCompare(b.start));
      const show = shows.at(-1);
      if (show !== undefined) {
        return {
          source: 'programme' as const,
          from: Date.parse(show.start),
          to: Date.parse(show.end),
          title: show.title,
        };
      }
    } catch (error) {
      app.log.warn(`Listes de titres : programme illisible, fenêtre de la durée prise (${(error as Error).message})`);
    }
    return byDuration;
  }

  api.get(
    '/content/tracklists/:episode/recorded',
    { config: { editor: true }, schema: { params } },
    async (request, reply) => {
      const editor = await app.editorOf(request);
      await prefills(request, reply, editor);
      const episode = await episodeOf(request.params.episode);
      allowed(request, editor, episode);
      const published = episode.pubDate === null ? Number.NaN : Date.parse(episode.pubDate);
      const duration = Math.max(0, Math.floor(episode.duration));
      const answer = (body: object) => reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send(body);
      if (!Number.isFinite(published)) {
        return answer({ episode: episode.slug, duration, slot: null, rows: [], dropped: 0 });
      }
      const slot = await slotOf(episode, published);
      const rows: { start: number; artist: string; title: string }[] = [];
      let dropped = 0;
      for (const row of app.played.between(slot.from, slot.to)) {
        const start = Math.floor((Date.parse(row.at) - slot.from) / 1000);
        const last = rows.at(-1);
        // Within the replay, one row a second (the starts must grow), TRACKS_MAX at most.
        if ((duration > 0 && start >= duration) || start < 0 || rows.length >= TRACKS_MAX) dropped += 1;
        else if (last !== undefined && last.start >= start) dropped += 1;
        else rows.push({ start, artist: trackText(row.artist), title: trackText(row.title) });
      }
      return answer({
        episode: episode.slug,
        duration,
        slot: {
          source: slot.source,
          from: new Date(slot.from).toISOString(),
          to: new Date(slot.to).toISOString(),
          ...('title' in slot ? { title: slot.title } : {}),
        },
        rows,
        dropped,
      });
    },
  );
}
