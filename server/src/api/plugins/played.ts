import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import {
  createPlayedRecorder,
  PLAYED_KEPT_MS,
  PLAYED_MAX,
  type PlayedRecorder,
  type PlayedRow,
} from '../../content/played';
import { demoTracks } from '../demo/nowplaying';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the radio played, recorded from the now-playing channel (docs/content.md). */
    played: PlayedRecorder;
  }
}

/** The file of what the radio played, in CONTENT_DIR beside the kinds' folders. */
export const PLAYED_FILE = 'played.json';

/**
 * The demo radio's past (docs/content.md, « What the radio played »): its rotation is the same on
 * every server and at every start, so what it played in the kept window is known without having
 * listened, and a fresh clone can prefill its episodes' tracklists. The newest PLAYED_MAX turns.
 */
export function demoPlayed(
  tracks: readonly { artist: string; title: string }[],
  now: number,
  rotationMs: number,
): PlayedRow[] {
  if (tracks.length === 0) return [];
  const last = Math.floor(now / rotationMs);
  const first = Math.max(Math.ceil((now - PLAYED_KEPT_MS) / rotationMs), last - PLAYED_MAX + 1, 0);
  const rows: PlayedRow[] = [];
  for (let turn = first; turn <= last; turn += 1) {
    const track = tracks[turn % tracks.length];
    if (track !== undefined) {
      rows.push({ at: new Date(turn * rotationMs).toISOString(), artist: track.artist, title: track.title });
    }
  }
  return rows;
}

/**
 * The recorder of what the radio played, for the now-playing channel that feeds it and the
 * tracklists' prefill that reads it. Written at close.
 */
const played: FastifyPluginAsync = async (app) => {
  const config = app.apiConfig;
  const recorder = await createPlayedRecorder({
    file: join(config.contentDir, PLAYED_FILE),
    shared: app.shared?.played ?? null,
    now: app.clock,
    log: {
      warn: (message) => {
        app.log.warn(message);
      },
    },
  });
  if (config.azuracast === null) {
    recorder.know(demoPlayed(demoTracks(app.releases), app.clock(), config.demo.rotationMs));
  }
  app.decorate('played', recorder);
  app.addHook('onClose', () => recorder.close());
};

export const playedPlugin = fp(played, { name: 'played', dependencies: ['sources'] });
