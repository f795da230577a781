import { open } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { startRecorder, MULTIVARIANT_FILE, WINDOW_FILE, type Recorder } from './recorder';
import { DELTA_FILE, PLAYLIST_FILE } from './window';
import { answeredNotModified } from '../http/conditional';

/** A segment's name never changes meaning: a year, immutable, shared by every listener and a CDN. */
export const SEGMENT_CACHE = 'public, max-age=31536000, immutable';
/** Playlists and window.json change with every segment: a second. */
export const PLAYLIST_CACHE = 'public, max-age=1';
const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT = /^\d{1,15}\.mp3$/;

/** `_HLS_skip=YES` or `v2` asks for the delta update (docs/timeshift.md, « Playlists »). */
export function wantsDelta(skip: unknown): boolean {
  return skip === 'YES' || skip === 'v2';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The live's recorder, once the server listens with LIVE_TIMESHIFT_HOURS > 0; else null. */
    timeshiftRecorder: { current: Recorder | null };
  }
}

/**
 * The live's timeline (docs/timeshift.md): the recorder, started when the server listens (a
 * rendition given as a path is this server's own, the demo's), and `/direct/`, the folder nginx
 * serves in production, served here under the same names and headers for `npm start`. Only the
 * names the recorder writes are answered: no listing, no temporary file, no other path.
 */
const timeshift: FastifyPluginCallback = (app, _options, done) => {
  const { timeshift: settings, radio } = app.apiConfig;
  const holder: { current: Recorder | null } = { current: null };
  let started = false;
  app.decorate('timeshiftRecorder', holder);
  if (settings.hours <= 0) {
    done();
    return;
  }
  const ids = new Set(radio.renditions.map((rendition) => rendition.id));

  /**
   * The file, opened before any header is set: one missing (not written yet, pruned a moment ago) is
   * the site's 404, never an answer with a segment's year of cache. Once open, a prune that removes
   * it does not cut the answer.
   */
  const send = async (request: FastifyRequest, reply: FastifyReply, file: string, type: string, cache: string) => {
    const handle = await open(join(settings.dir, file), 'r').catch(() => null);
    const info = handle === null ? null : await handle.stat().catch(() => null);
    if (handle === null || info === null || !info.isFile()) {
      await handle?.close();
      reply.callNotFound();
      return reply;
    }
    // The file's own validator (its time and size, as nginx writes it for the same file), answered
    // by the site's one conditional GET (http/conditional.ts: lists, weak tags and `*` understood).
    const etag = `"${Math.floor(info.mtimeMs).toString(16)}-${info.size.toString(16)}"`;
    reply.header('Access-Control-Allow-Origin', '*').type(type);
    if (answeredNotModified(request, reply, { etag, cacheControl: cache })) {
      await handle.close();
      return reply;
    }
    return reply.header('Content-Length', info.size).send(handle.createReadStream());
  };

  app.get('/direct/live.m3u8', (request, reply) =>
    send(request, reply, MULTIVARIANT_FILE, PLAYLIST_TYPE, PLAYLIST_CACHE),
  );
  app.get('/direct/window.json', (request, reply) =>
    send(request, reply, WINDOW_FILE, 'application/json; charset=utf-8', PLAYLIST_CACHE),
  );
  app.get<{ Params: { rendition: string; file: string }; Querystring: { _HLS_skip?: string } }>(
    '/direct/:rendition/:file',
    (request, reply) => {
      const { rendition, file } = request.params;
      if (!ids.has(rendition)) {
        reply.callNotFound();
        return reply;
      }
      if (file === PLAYLIST_FILE) {
        const name = wantsDelta(request.query._HLS_skip) ? DELTA_FILE : PLAYLIST_FILE;
        return send(request, reply, join(rendition, name), PLAYLIST_TYPE, PLAYLIST_CACHE);
      }
      if (!SEGMENT.test(file)) {
        reply.callNotFound();
        return reply;
      }
      return send(request, reply, join(rendition, file), 'audio/mpeg', SEGMENT_CACHE);
    },
  );

  app.addHook('onListen', async () => {
    // Called once per address listened on (localhost: two): one recorder.
    if (started) return;
    started = true;
    const address: AddressInfo | string | null = app.server.address();
    const own =
      address !== null && typeof address === 'object'
        ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${String(address.port)}`
        : null;
    const local = own?.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:') ?? null;
    holder.current = await startRecorder({
      dir: settings.dir,
      segmentSeconds: settings.segmentSeconds,
      hours: settings.hours,
      renditions: radio.renditions.map((rendition) => ({
        id: rendition.id,
        label: rendition.label,
        bitrate: rendition.bitrate,
        url: () =>
          rendition.url.startsWith('/') ? (local === null ? null : `${local}${rendition.url}`) : rendition.url,
      })),
      leases: app.shared?.leases ?? null,
      now: app.clock,
      log: {
        info: (message) => {
          app.log.info(message);
        },
        warn: (message) => {
          app.log.warn(message);
        },
      },
    });
  });
  // Before the server closes: the recorder may be a listener of this very server (the demo's live),
  // whose connection would hold the close until it ends.
  app.addHook('preClose', async () => {
    await holder.current?.close();
    holder.current = null;
  });
  done();
};

export const timeshiftPlugin = fp(timeshift, { name: 'timeshift', dependencies: ['sources'] });
