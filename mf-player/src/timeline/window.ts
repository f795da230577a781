// What the timeline learns of the hours kept before any HLS is loaded (docs/player.md, « The
// timeline »): GET /api/timeshift (the window and what played in it) and /direct/window.json (the
// window, its segments' length), both read defensively: a proxy, an older server or a hostile
// answer gives no timeline, never an error on the page.
import { apiUrl } from '@collectif/shared';
import { TRACK_TEXT_MAX } from '@collectif/shared/limits';
import { EDGE_SEGMENTS, type PlayedRow } from '../player/playerSlice';

/** The most rows of what played the player keeps (48 hours of three-minute tracks is under 1,000). */
export const PLAYED_MAX = 2_000;
/** An answer longer than this is not read. */
const ANSWER_MAX_BYTES = 1 << 20;
const FETCH_TIMEOUT_MS = 5_000;
/** The longest a segment may be (LIVE_TIMESHIFT_SEGMENT_S, docs/settings.md). */
const SEGMENT_MAX_S = 30;

export interface LearnedWindow {
  start: number;
  end: number;
  /** How near the edge the timeline plays (ms), from the segments' length. */
  closest?: number;
  played?: PlayedRow[];
}

function instant(value: unknown): number | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim().slice(0, TRACK_TEXT_MAX) : '';
}

const record = (data: unknown): Record<string, unknown> =>
  typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};

/** GET /api/timeshift: its window (null when it keeps none) and what played, oldest first, bounded. */
export function readTimeshift(data: unknown): { start: number | null; end: number | null; played: PlayedRow[] } {
  const answer = record(data);
  const rows = Array.isArray(answer.played) ? (answer.played as unknown[]) : [];
  const played: PlayedRow[] = [];
  for (const row of rows.slice(-PLAYED_MAX)) {
    const fields = record(row);
    const at = instant(fields.at);
    if (at !== null) played.push({ at, artist: text(fields.artist), title: text(fields.title) });
  }
  played.sort((a, b) => a.at - b.at);
  return { start: instant(answer.start), end: instant(answer.end), played };
}

/** /direct/window.json: `{ start, end, segmentSeconds }`, or null when it is not that. */
export function readWindowFile(data: unknown): { start: number; end: number; segmentSeconds: number } | null {
  const file = record(data);
  const start = instant(file.start);
  const end = instant(file.end);
  const { segmentSeconds } = file;
  if (start === null || end === null || !(start < end)) return null;
  if (typeof segmentSeconds !== 'number' || !(segmentSeconds > 0 && segmentSeconds <= SEGMENT_MAX_S)) return null;
  return { start, end, segmentSeconds };
}

async function readJson(url: string, signal?: AbortSignal): Promise<unknown> {
  try {
    const response = await fetch(url, {
      credentials: 'omit',
      cache: 'no-cache',
      signal:
        signal === undefined
          ? AbortSignal.timeout(FETCH_TIMEOUT_MS)
          : AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]),
    });
    if (!response.ok) return null;
    const body = await response.text();
    return body.length > ANSWER_MAX_BYTES ? null : (JSON.parse(body) as unknown);
  } catch {
    return null;
  }
}

/**
 * The window and what played, from both sources at once: window.json's window when it answers
 * (it is the recorder's own), else the API's; the API's rows. Null when neither names a window.
 */
export async function fetchWindow(playlist: string, signal?: AbortSignal): Promise<LearnedWindow | null> {
  const [api, file] = await Promise.all([
    readJson(apiUrl('/timeshift'), signal),
    readJson(new URL('window.json', playlist).href, signal),
  ]);
  const answer = readTimeshift(api);
  const window = readWindowFile(file);
  const start = window?.start ?? answer.start;
  const end = window?.end ?? answer.end;
  if (start === null || end === null || !(start < end)) return null;
  return {
    start,
    end,
    ...(window === null ? {} : { closest: EDGE_SEGMENTS * window.segmentSeconds * 1000 }),
    ...(api === null ? {} : { played: answer.played }),
  };
}
