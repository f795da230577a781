/**
 * The timeline's one reading of time (docs/player.md, « The timeline »): the audio element's
 * position is mapped to the instant it plays through the segments' program date-time, and back.
 * Pure functions of the playlist's segments, as hls.js gives them (`Fragment`: `start` and
 * `duration` in the element's seconds, `programDateTime` in Unix ms).
 */

export interface Segment {
  /** Where it starts in the element's time, in seconds. */
  start: number;
  /** Its length, in seconds. */
  duration: number;
  /** The instant its first sample was on air (Unix ms), or null when the playlist dates none. */
  programDateTime: number | null;
}

/** The last segment whose `key` is at or before `value`, by bisection (the segments are in order). */
function lastAtOrBefore(segments: readonly Segment[], value: number, key: (segment: Segment) => number): number {
  let low = 0;
  let high = segments.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const segment = segments[middle];
    if (segment !== undefined && key(segment) <= value) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

const dated = (segments: readonly Segment[]) =>
  segments.filter((segment) => segment.programDateTime !== null && Number.isFinite(segment.programDateTime));

/**
 * The instant (Unix ms) the element's position `time` plays: its segment's date and how far into it
 * the position is. Null before the first segment, past the last one's end, or in an undated one.
 */
export function instantAt(segments: readonly Segment[], time: number): number | null {
  if (!Number.isFinite(time)) return null;
  const index = lastAtOrBefore(segments, time, (segment) => segment.start);
  const segment = segments[index];
  if (segment === undefined || segment.programDateTime === null) return null;
  const into = time - segment.start;
  if (into > segment.duration + 0.5) return null;
  return segment.programDateTime + into * 1000;
}

/**
 * The element's position that plays `instant`: within its segment; in a gap the recorder left (a
 * discontinuity), the start of the segment after it; before the first, the first's start; past the
 * last, the last one's end. Null when no segment is dated.
 */
export function timeAt(segments: readonly Segment[], instant: number): number | null {
  const list = dated(segments);
  const first = list[0];
  if (first === undefined || !Number.isFinite(instant)) return null;
  const index = lastAtOrBefore(list, instant, (segment) => segment.programDateTime ?? 0);
  const segment = list[index];
  if (segment === undefined) return first.start;
  const into = (instant - (segment.programDateTime ?? 0)) / 1000;
  if (into < segment.duration) return segment.start + into;
  return list[index + 1]?.start ?? segment.start + segment.duration;
}

/** The instants the segments cover, from the first one's date to the last one's end; null if none is dated. */
export function spanOf(segments: readonly Segment[]): { start: number; end: number } | null {
  const list = dated(segments);
  const first = list[0];
  const last = list.at(-1);
  if (first === undefined || last === undefined) return null;
  return { start: first.programDateTime ?? 0, end: (last.programDateTime ?? 0) + last.duration * 1000 };
}
