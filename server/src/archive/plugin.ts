import { join } from 'node:path';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import fp from 'fastify-plugin';
import * as v from 'valibot';
import type { FastifyPluginCallback } from 'fastify';
import { residenceSlots, type ResidenceSlot } from '../schedule/slots';
import { sendOpened } from './range';
import { NO_ARCHIVES, type ArchivedShows } from './episodes';
import { fingerprint } from '../feed';
import { readChoices, writeChoices, type Choices } from './choices';
import type { ArchiveConfig } from './config';
import { makeArchive, type ArchiveOutcome, type PlayedTrack } from './make';
import { ARCHIVE_ID, archiveId, mp3Name, playlistName, type ArchiveRecord } from './record';
import { keepBounds, readRecords } from './store';

/**
 * The live archives (docs/archive.md): when a residence's programme slot ends, the instance that
 * records the live (the recorder's lease, docs/timeshift.md, « One recorder ») makes the show's
 * archive from the timeline's folder, within the bounds; every instance reads the archives'
 * folder, lists the published ones and serves their files at `/archives/` (nginx in production).
 */

/** How often the programme is read for slots that ended. */
export const CHECK_MS = 30_000;
/** Records read again at most this often (another instance may have written one). */
const LIST_MS = 5_000;
const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
/** An archive's files may be rewritten (a trim in the editor): kept five minutes, revalidated by their ETag. */
export const ARCHIVE_CACHE = 'public, max-age=300';
/** The header nginx sets on `/archives/` (deploy/nginx.conf): its internal location's prefix. */
export const ACCEL_HEADER = 'x-collectif-archives';
const ACCEL_PREFIX = /^\/_[a-z]{1,20}\/$/;
const FILE = /^([a-z0-9][a-z0-9-]{0,79}-\d{4}-\d{2}-\d{2}-\d{2}h\d{2})\.(mp3|m3u8)$/;

export interface ArchiveService {
  config: ArchiveConfig;
  /** The published archives, oldest slot first (none when LIVE_ARCHIVE is off). */
  published(): Promise<ArchiveRecord[]>;
  /** Every archive, published or not (the editor's). */
  all(): Promise<ArchiveRecord[]>;
  /** Reads the programme once and archives what ended (the lease holder's; tests call it). */
  check(): Promise<{ id: string; outcome: ArchiveOutcome }[]>;
  /** The published archives as the catalogue merges them: the same object until one changes. */
  readonly showing: { readonly shows: ArchivedShows };
  /** Reads the records again now (every instance does every LIST_MS, and after writing one). */
  refresh(): Promise<ArchivedShows>;
}

export interface ArchivesPluginOptions {
  /** SITE_ORIGIN: an archive's episode is linked to its page there. */
  siteOrigin?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    archives: ArchiveService;
  }
}

interface ResidenceText {
  id: string;
  artist?: string;
  show?: string;
}

const dateFr = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

const playedAnswer = v.object({
  played: v.pipe(
    v.array(v.object({ at: v.pipe(v.string(), v.isoTimestamp()), artist: v.string(), title: v.string() })),
    v.maxLength(1000),
  ),
});

const archives: FastifyPluginCallback<ArchivesPluginOptions> = (app, options, done) => {
  const config = app.apiConfig.archive;
  const timeshift = app.apiConfig.timeshift;
  const [rendition] = app.apiConfig.radio.renditions;
  const on = config.mode !== 'off' && timeshift.hours > 0;
  const warn = (message: string) => {
    app.log.warn(message);
  };
  let cached: { at: number; records: Promise<ArchiveRecord[]> } | null = null;
  const all = (): Promise<ArchiveRecord[]> => {
    if (!on) return Promise.resolve([]);
    const now = Date.now();
    if (cached === null || now - cached.at > LIST_MS) cached = { at: now, records: readRecords(config.dir, { warn }) };
    return cached.records;
  };
  const published = async () => (await all()).filter((record) => record.published);
  const covers = Object.fromEntries(
    app.sources.residences.flatMap((residence) =>
      residence.cover === undefined ? [] : [[residence.id, residence.cover]],
    ),
  );
  // Read by the catalogue at each of its requests as a value, not a call: nothing of this file runs
  // for a page (docs/rendering.md, « A page's way »).
  const showing = { shows: { ...NO_ARCHIVES, origin: options.siteOrigin ?? NO_ARCHIVES.origin, covers } };
  const refresh = async (): Promise<ArchivedShows> => {
    cached = null;
    const records = await published();
    const revision = records.length === 0 ? '' : fingerprint(JSON.stringify(records));
    if (revision !== showing.shows.revision) showing.shows = { ...showing.shows, revision, records };
    return showing.shows;
  };
  /** Ids tried by this instance that made nothing (no frames, refused): not tried again at each look. */
  const tried = new Set<string>();
  const started = app.clock();

  const residenceOf = (id: string): ResidenceText | undefined =>
    (app.content.current('residences').data as ResidenceText[]).find((entry) => entry.id === id) ??
    app.sources.residences.find((entry) => entry.id === id);

  /**
   * The tracks of the slot, as the timeline's own answer gives what played in the window
   * (docs/timeshift.md, « What played when »): the one playing at its start, then those that
   * started in it.
   */
  const tracksOf = async (slot: ResidenceSlot): Promise<PlayedTrack[]> => {
    const answer = await app.inject({ method: 'GET', url: '/api/timeshift' });
    if (answer.statusCode !== 200) return [];
    const read = v.safeParse(playedAnswer, answer.json());
    if (!read.success) return [];
    const rows = read.output.played.map((row) => ({ at: Date.parse(row.at), artist: row.artist, title: row.title }));
    const before = rows.filter((row) => row.at < slot.start).at(-1);
    return [
      ...(before === undefined ? [] : [before]),
      ...rows.filter((row) => row.at >= slot.start && row.at < slot.end),
    ];
  };

  /** The demo keeps one residence's shows: the first whose slot ends after the server started. */
  const demoChoice = async (slots: readonly ResidenceSlot[], choices: Choices): Promise<Choices> => {
    if (!config.demo || Object.keys(choices).length > 0) return choices;
    const first = slots.find((slot) => slot.end > started);
    if (first === undefined) return choices;
    const chosen: Choices = { [first.residence]: { keep: true, publish: 'now' } };
    await writeChoices(config.dir, chosen).catch(() => undefined);
    return chosen;
  };

  const check = async (): Promise<{ id: string; outcome: ArchiveOutcome }[]> => {
    if (!on || rendition === undefined) return [];
    const now = app.clock();
    const keepMs = timeshift.hours * 3600_000;
    // The last segment of a slot is written when the next one's first frame comes: two segments' wait.
    const settleMs = timeshift.segmentSeconds * 2000 + 2000;
    const slots = (await residenceSlots(app, now - keepMs, now).catch(() => [])).filter(
      (slot) => slot.end > now - keepMs,
    );
    await mkdir(config.dir, { recursive: true });
    const choices = config.mode === 'chosen' ? await demoChoice(slots, await readChoices(config.dir, warn)) : {};
    const known = new Set((await readRecords(config.dir, { warn })).map((record) => record.id));
    // Deleted in the editor: not made again (the marks go once the window no longer has the slot).
    for (const name of await readdir(config.dir).catch(() => [])) {
      if (!name.endsWith('.deleted')) continue;
      const path = join(config.dir, name);
      const made = await stat(path).catch(() => null);
      if (made !== null && made.mtimeMs < now - keepMs - 24 * 3600_000) await rm(path, { force: true });
      else known.add(name.slice(0, -'.deleted'.length));
    }
    const results: { id: string; outcome: ArchiveOutcome }[] = [];
    for (const slot of slots.filter((entry) => entry.end <= now - settleMs)) {
      const choice = config.mode === 'all' ? { keep: true, publish: 'now' as const } : choices[slot.residence];
      if (choice?.keep !== true) continue;
      const id = archiveId(slot.residence, slot.start);
      if (!ARCHIVE_ID.test(id) || known.has(id) || tried.has(id)) continue;
      tried.add(id);
      const residence = residenceOf(slot.residence);
      const show = residence?.show ?? residence?.artist ?? slot.residence;
      // Room made first: the slot at the rendition's bit rate.
      const incoming = Math.ceil(((slot.end - slot.start) / 1000) * (rendition.bitrate * 125));
      const bounds = await keepBounds(config.dir, { keepMs: config.keepMs, maxBytes: config.maxBytes }, now, incoming, {
        warn,
      });
      for (const gone of bounds.removed) app.log.info(`archives : ${gone} retirée (durée ou place)`);
      let outcome: ArchiveOutcome;
      if (!bounds.room) {
        outcome = { kind: 'refused', reason: 'plus grande que la place réservée aux archives' };
      } else {
        outcome = await makeArchive(
          {
            id,
            residence: slot.residence,
            start: slot.start,
            end: slot.end,
            title: `${show} — direct du ${dateFr.format(new Date(slot.start))}`,
            artist: residence?.artist ?? slot.residence,
            album: show,
            tracks: await tracksOf(slot),
            published: choice.publish === 'now',
          },
          {
            windowDir: join(timeshift.dir, rendition.id),
            dir: config.dir,
            keepMs,
            now: app.clock,
            reserveBytes: config.reserveBytes,
          },
        );
      }
      if (outcome.kind === 'written') {
        await refresh();
        const { gaps, truncated, seconds } = outcome.record;
        app.log.info(
          `archives : ${id} écrite (${String(Math.round(seconds))} s, ${String(gaps.length)} trou(s)${truncated === null ? '' : ', début hors de la fenêtre'})`,
        );
      } else if (outcome.kind === 'refused') {
        app.log.error(`archives : ${id} refusée (${outcome.reason})`);
      } else {
        app.log.info(`archives : ${id} non gardée (${outcome.reason})`);
      }
      results.push({ id, outcome });
    }
    return results;
  };

  app.decorate('archives', { config, published, all, check, showing, refresh } satisfies ArchiveService);

  app.get<{ Params: { file: string } }>('/archives/:file', async (request, reply) => {
    const match = FILE.exec(request.params.file);
    const id = match?.[1];
    const record = id === undefined ? undefined : (await published()).find((entry) => entry.id === id);
    const mp3 = match?.[2] === 'mp3';
    if (record === undefined || id === undefined) {
      reply.callNotFound();
      return reply;
    }
    const file = mp3 ? mp3Name(id) : playlistName(id);
    // Opened before any header is set: a file removed a moment ago is the site's 404.
    const handle = await open(join(config.dir, file), 'r').catch(() => null);
    const info = handle === null ? null : await handle.stat().catch(() => null);
    if (handle === null || info === null || !info.isFile()) {
      await handle?.close();
      reply.callNotFound();
      return reply;
    }
    // Behind nginx, nginx sends the file itself, with its byte ranges (deploy/nginx.conf's internal
    // location, named by the header it sets): this instance only says that it is published.
    const accel = request.headers[ACCEL_HEADER];
    if (typeof accel === 'string' && ACCEL_PREFIX.test(accel)) {
      await handle.close();
      return (
        reply
          .header('X-Accel-Redirect', `${accel}${file}`)
          // Kept by nginx across the redirect, as Cache-Control is.
          .type(mp3 ? 'audio/mpeg' : PLAYLIST_TYPE)
          .header('Cache-Control', ARCHIVE_CACHE)
          .send('')
      );
    }
    return sendOpened(
      request,
      reply,
      handle,
      info.size,
      info.mtimeMs,
      mp3 ? 'audio/mpeg' : PLAYLIST_TYPE,
      ARCHIVE_CACHE,
    );
  });

  let timer: NodeJS.Timeout | null = null;
  let running = Promise.resolve();
  let reading: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (!on) return;
    await refresh().catch(() => undefined);
    // Every instance: another one may have written an archive.
    reading = setInterval(() => {
      void refresh().catch(() => undefined);
    }, LIST_MS * 3);
    reading.unref();
  });
  app.addHook('onListen', (ready) => {
    if (on && config.watching && timer === null) {
      timer = setInterval(() => {
        // Only the instance that records writes archives: its lease is the archiver's.
        if (app.timeshiftRecorder.current?.recording() !== true) return;
        running = running
          .then(() => check())
          .then(
            () => undefined,
            (error: unknown) => {
              warn(
                `archives : lecture du programme impossible (${error instanceof Error ? error.message : String(error)})`,
              );
            },
          );
      }, CHECK_MS);
      timer.unref();
    }
    ready();
  });
  app.addHook('preClose', async () => {
    if (timer !== null) clearInterval(timer);
    if (reading !== null) clearInterval(reading);
    timer = null;
    await running;
  });
  done();
};

export const archivesPlugin = fp(archives, { name: 'archives', dependencies: ['sources', 'timeshift'] });
