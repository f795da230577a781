import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ApiHttpError } from '../http/errors';
import { writeWhole } from '../files/whole';
import type { Editor } from '../content/editors';
import { readChoices, writeChoices } from './choices';
import { trimArchive } from './trim';
import { sendOpened } from './range';
import { readId3, showTag, tagText } from './id3';
import { ARCHIVE_ID, deletedName, mp3Name, recordName, type ArchiveRecord } from './record';
import { readRecords, removeArchive } from './store';

/**
 * The editor's routes of the live archives (docs/archive.md, « The editor »): per residence, keep
 * its live shows or not and publish them at once or after a look (`LIVE_ARCHIVE=chosen`); per
 * archive, its title and text, trimmed to the second, published or hidden, deleted. An admin sees
 * every residence's; a resident only their own; the other teams none. Titles and texts are text:
 * control characters out, bounded, never markup (the site escapes them where it shows them).
 */

/** The longest text of an archive, in characters. */
export const ARCHIVE_TEXT_MAX = 2000;

const choiceBody = v.strictObject({ keep: v.boolean(), publish: v.picklist(['now', 'review']) });
const changeBody = v.strictObject({
  title: v.optional(v.pipe(v.string(), v.maxLength(1000))),
  text: v.optional(v.pipe(v.string(), v.maxLength(ARCHIVE_TEXT_MAX * 2))),
  published: v.optional(v.boolean()),
  /** Seconds of the archive as it is: what is kept, to the second. */
  trim: v.optional(
    v.strictObject({
      start: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
      end: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
    }),
  ),
});

/** A text as kept: single spaces, no control character, lines kept (at most two in a row). */
function plainText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
      .slice(0, ARCHIVE_TEXT_MAX)
      .trim()
  );
}

const forbidden = () => new ApiHttpError(403, 'forbidden', 'Ce compte ne peut pas modifier ces archives.');
const unknown = () =>
  new ApiHttpError(404, 'not_found', 'Archive inconnue : aucune archive du direct n’a cette adresse.');

/** Whether `editor` sees the archives of `residence`: an admin all, a resident their own. */
function sees(editor: Editor, residence: string): boolean {
  if (editor.role === 'admin') return true;
  return editor.role === 'residence' && editor.residence === residence;
}

function badRequest(issues: readonly v.BaseIssue<unknown>[]): ApiHttpError {
  const issue = issues[0];
  const key = issue?.path?.map((item) => String(item.key)).join('.') ?? '';
  return new ApiHttpError(400, 'bad_request', `Champ ${key === '' ? 'du corps' : `« ${key} »`} invalide.`);
}

/** The MP3's tag rewritten in place with the record's title (its place is kept; a longer one waits). */
async function retitle(dir: string, record: ArchiveRecord): Promise<void> {
  const handle = await open(join(dir, mp3Name(record.id)), 'r+');
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const tag = readId3(head.subarray(0, bytesRead));
    if (tag === null) return;
    const next = showTag(
      {
        title: record.title,
        artist: tag.texts.TPE1 ?? record.artist,
        ...(tag.texts.TALB === undefined ? {} : { album: tag.texts.TALB }),
        ...(tag.texts.TDRC === undefined ? {} : { date: tag.texts.TDRC }),
        ...(tag.texts.TLEN === undefined ? {} : { lengthMs: Number(tag.texts.TLEN) }),
        chapters: tag.chapters,
      },
      tag.size,
    );
    await handle.write(next, 0, next.length, 0);
  } catch {
    // The new title does not fit the tag's place: the record and the site say it; the file keeps its own.
  } finally {
    await handle.close();
  }
}

export default function archiveRoutes(
  instance: FastifyInstance,
  _options: object,
  done: (error?: Error) => void,
): void {
  const app = instance;
  const service = () => {
    if (!app.hasDecorator('archives') || app.archives.config.mode === 'off') {
      throw new ApiHttpError(404, 'archives_off', 'Les archives du direct ne sont pas en service sur ce site.');
    }
    return app.archives;
  };

  /** The editor of the request, and the archive `id` they may change: 403 or 404 otherwise. */
  async function archiveOf(request: FastifyRequest, id: string): Promise<{ editor: Editor; record: ArchiveRecord }> {
    const editor = await app.editorOf(request);
    const archives = service();
    if (editor.role !== 'admin' && editor.role !== 'residence') throw forbidden();
    const record = ARCHIVE_ID.test(id) ? (await archives.all()).find((entry) => entry.id === id) : undefined;
    if (record === undefined || !sees(editor, record.residence)) throw unknown();
    return { editor, record };
  }

  const json = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

  instance.get('/editor/archives', { config: { editor: true } }, async (request, reply) => {
    const editor = await app.editorOf(request);
    const archives = service();
    if (editor.role !== 'admin' && editor.role !== 'residence') throw forbidden();
    const { dir, mode } = archives.config;
    const choices = await readChoices(dir);
    const records = (await readRecords(dir)).filter((record) => sees(editor, record.residence)).reverse();
    const residences = app.sources.residences
      .filter((residence) => sees(editor, residence.id))
      .map((residence) => ({
        id: residence.id,
        artist: residence.artist,
        choice:
          mode === 'all'
            ? { keep: true, publish: 'now' }
            : (choices[residence.id] ?? { keep: false, publish: 'review' }),
      }));
    return json(reply).send({ mode, residences, archives: records });
  });

  // The archive's MP3 for the volunteers who see it, published or not: the look before publishing.
  instance.get<{ Params: { id: string } }>(
    '/editor/archives/:id/audio',
    { config: { editor: true } },
    async (request, reply) => {
      const { record } = await archiveOf(request, request.params.id);
      const handle = await open(join(service().config.dir, mp3Name(record.id)), 'r').catch(() => null);
      const info = handle === null ? null : await handle.stat().catch(() => null);
      if (handle === null || info === null) {
        await handle?.close();
        throw unknown();
      }
      return sendOpened(request, reply, handle, info.size, info.mtimeMs, 'audio/mpeg', 'private, no-store');
    },
  );

  instance.put<{ Params: { residence: string } }>(
    '/editor/archives/residences/:residence',
    { config: { editor: true } },
    async (request, reply) => {
      const editor = await app.editorOf(request);
      const archives = service();
      const { residence } = request.params;
      if (!app.sources.residences.some((entry) => entry.id === residence) || !sees(editor, residence))
        throw forbidden();
      if (archives.config.mode !== 'chosen') {
        throw new ApiHttpError(
          409,
          'not_chosen',
          'Ce site garde toutes les émissions en direct (LIVE_ARCHIVE=all) : il n’y a pas de choix par résidence.',
        );
      }
      const read = v.safeParse(choiceBody, request.body);
      if (!read.success) throw badRequest(read.issues);
      const choices = await readChoices(archives.config.dir);
      await writeChoices(archives.config.dir, { ...choices, [residence]: read.output });
      request.log.info({ account: editor.account, residence, ...read.output }, 'archives : choix enregistré');
      return json(reply).send({ residence, choice: read.output });
    },
  );

  instance.put<{ Params: { id: string } }>(
    '/editor/archives/:id',
    { config: { editor: true } },
    async (request, reply) => {
      const { editor, record } = await archiveOf(request, request.params.id);
      const read = v.safeParse(changeBody, request.body);
      if (!read.success) throw badRequest(read.issues);
      const { title, text, published, trim } = read.output;
      const { dir } = service().config;
      let changed: ArchiveRecord = { ...record };
      if (trim !== undefined) {
        if (trim.end <= trim.start || trim.end > Math.round(record.seconds)) {
          throw new ApiHttpError(
            400,
            'bad_request',
            `Coupe impossible : le début doit précéder la fin, et la fin ne pas dépasser ${String(Math.round(record.seconds))} s.`,
          );
        }
        try {
          changed = await trimArchive(dir, record, trim.start, trim.end);
        } catch (error) {
          request.log.error(
            { archive: record.id, reason: error instanceof Error ? error.message : String(error) },
            'archives : coupe impossible',
          );
          throw new ApiHttpError(
            503,
            'unavailable',
            'La coupe n’a pas pu être écrite (disque plein ?) : l’archive est restée entière.',
          );
        }
      }
      if (title !== undefined) {
        const kept = tagText(title);
        if (kept === '') throw new ApiHttpError(400, 'bad_request', 'Le titre ne peut pas être vide.');
        changed.title = kept;
      }
      if (text !== undefined) {
        const kept = plainText(text);
        if (kept === '') delete changed.text;
        else changed.text = kept;
      }
      if (published !== undefined) changed.published = published;
      await writeWhole(join(dir, recordName(record.id)), JSON.stringify(changed));
      if (changed.title !== record.title) await retitle(dir, changed);
      await app.archives.refresh();
      request.log.info({ account: editor.account, archive: record.id }, 'archives : archive modifiée');
      return json(reply).send(changed);
    },
  );

  instance.delete<{ Params: { id: string } }>(
    '/editor/archives/:id',
    { config: { editor: true } },
    async (request, reply) => {
      const { editor, record } = await archiveOf(request, request.params.id);
      const { dir } = service().config;
      // Not archived again by a look while the window still holds the slot.
      await writeWhole(join(dir, deletedName(record.id)), '');
      await removeArchive(dir, record.id);
      await app.archives.refresh();
      request.log.info({ account: editor.account, archive: record.id }, 'archives : archive supprimée');
      return reply.code(204).send();
    },
  );

  done();
}
