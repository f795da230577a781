import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import type { FastifyPluginCallback } from 'fastify';
import type { ValibotJsonTypeProvider } from '../api/schemas/provider';
import { routeSchemas } from '../api/schemas/routes';
import { WINDOW_FILE } from './recorder';

/** window.json as the recorder writes it; read back as input (another instance may have written it). */
const windowSchema = v.object({
  start: v.pipe(v.string(), v.maxLength(40), v.isoTimestamp()),
  end: v.pipe(v.string(), v.maxLength(40), v.isoTimestamp()),
});
/** What the window's file is re-read after: a segment's length is at least two seconds. */
const WINDOW_READ_MS = 1000;
/** At most this many rows in an answer: 4 hours of three-minute tracks is 80. */
export const TIMESHIFT_PLAYED_MAX = 500;

/**
 * GET /api/timeshift (docs/timeshift.md, « What played when »): the live's window, read from the
 * folder the recorder writes (whichever instance records), and what the radio played in it, so
 * that a listener behind the edge reads the track of the moment they hear. Bounded to the window.
 */
const timeshift: FastifyPluginCallback = (instance, _options, done) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  const { hours, dir } = app.apiConfig.timeshift;
  let cached: { at: number; window: { start: string; end: string } | null } | null = null;

  async function readWindow(): Promise<{ start: string; end: string } | null> {
    const now = Date.now();
    if (cached !== null && now - cached.at < WINDOW_READ_MS) return cached.window;
    let window: { start: string; end: string } | null = null;
    if (hours > 0) {
      try {
        const text = await readFile(join(dir, WINDOW_FILE), 'utf8');
        const read = v.safeParse(windowSchema, JSON.parse(text.slice(0, 4096)));
        if (read.success && Date.parse(read.output.start) <= Date.parse(read.output.end)) {
          window = { start: read.output.start, end: read.output.end };
        }
      } catch {
        window = null;
      }
    }
    cached = { at: now, window };
    return window;
  }

  app.get('/timeshift', { schema: { response: { 200: routeSchemas.timeshift } } }, async (_request, reply) => {
    const window = await readWindow();
    let played: { at: string; artist: string; title: string }[] = [];
    if (window !== null) {
      const from = Date.parse(window.start);
      const to = Date.parse(window.end);
      const rows = app.played.rows();
      // The track already playing when the window starts, then those that started in it.
      const before = rows.filter((row) => Date.parse(row.at) < from).at(-1);
      const within = app.played.between(from, to + 1);
      played = [...(before === undefined ? [] : [before]), ...within].slice(-TIMESHIFT_PLAYED_MAX);
    }
    return reply
      .header('Cache-Control', 'public, max-age=5')
      .send({ hours, start: window?.start ?? null, end: window?.end ?? null, played });
  });
  done();
};

export default timeshift;
