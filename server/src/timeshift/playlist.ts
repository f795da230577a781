/**
 * The timeline's playlists (docs/timeshift.md, « Playlists »), written as text files the web server
 * sends as they are. A media playlist lists the window's segments; its delta update skips those
 * older than CAN-SKIP-UNTIL behind the edge, so that a listener's player, which fetches the
 * playlist again every target duration, downloads a few lines rather than the whole window.
 */

/** One segment of a rendition's window. */
export interface WindowSegment {
  /** floor(start / segment length): its file is `<sequence>.mp3`. */
  sequence: number;
  /** Its first sample's instant, Unix ms. */
  start: number;
  /** Its playing time, in seconds. */
  duration: number;
  /** Its file's size, in bytes. */
  bytes: number;
  /** The discontinuity sequence it belongs to: one more after each gap (a drop, a failover). */
  epoch: number;
}

/** A rendition as the multivariant playlist names it. */
export interface VariantEntry {
  id: string;
  label: string;
  /** kb/s */
  bitrate: number;
}

/** HLS names MPEG-1/2 layer III audio so (RFC 6381, as Apple's authoring spec lists it). */
export const MP3_CODECS = 'mp4a.40.34';
/** Delta updates (EXT-X-SKIP) need version 9 of the protocol (EXT-X-GAP, 8). */
const VERSION = 9;
/** The smallest CAN-SKIP-UNTIL the protocol allows: six target durations. */
export const SKIP_TARGETS = 6;

export function targetDuration(segments: readonly WindowSegment[], segmentSeconds: number): number {
  return Math.max(segmentSeconds, ...segments.map((segment) => Math.round(segment.duration)));
}

function dateOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** A slot of the grid between two segments of the window with no segment of its own. */
interface Gap {
  gap: true;
  sequence: number;
  start: number;
  duration: number;
  epoch: number;
}

/**
 * The window's segments, and a gap for each slot of the grid missing between two of them (a drop, a
 * lost write, the slot skipped at a reconnection): HLS numbers segments by their place in the
 * playlist, so every slot is listed for a segment's media sequence number to stay its name (docs/
 * timeshift.md, « Playlists »). The window's hours bound the gaps as they bound the segments.
 */
function entries(segments: readonly WindowSegment[], segmentSeconds: number): (WindowSegment | Gap)[] {
  const listed: (WindowSegment | Gap)[] = [];
  let previous: WindowSegment | undefined;
  for (const segment of segments) {
    for (let sequence = (previous?.sequence ?? segment.sequence) + 1; sequence < segment.sequence; sequence += 1) {
      const epoch = previous?.epoch ?? segment.epoch;
      listed.push({ gap: true, sequence, start: sequence * segmentSeconds * 1000, duration: segmentSeconds, epoch });
    }
    listed.push(segment);
    previous = segment;
  }
  return listed;
}

/**
 * The media playlist of `segments` (oldest first, at least one). With `delta`, the segments more
 * than CAN-SKIP-UNTIL before the edge are replaced by one EXT-X-SKIP line.
 */
export function mediaPlaylist(
  segments: readonly WindowSegment[],
  segmentSeconds: number,
  { delta = false }: { delta?: boolean } = {},
): string {
  const [first] = segments;
  if (first === undefined) throw new Error('playlist sans segment');
  const target = targetDuration(segments, segmentSeconds);
  const skipUntil = SKIP_TARGETS * target;
  const listed = entries(segments, segmentSeconds);
  let skipped = 0;
  if (delta) {
    // Skipped: every segment that ends more than skipUntil seconds before the edge.
    let fromEdge = 0;
    for (let index = listed.length - 1; index >= 0; index -= 1) {
      fromEdge += listed[index]?.duration ?? 0;
      if (fromEdge > skipUntil) {
        skipped = index;
        break;
      }
    }
  }
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${String(VERSION)}`,
    `#EXT-X-TARGETDURATION:${String(target)}`,
    `#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=${String(skipUntil)}`,
    `#EXT-X-MEDIA-SEQUENCE:${String(first.sequence)}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${String(first.epoch)}`,
  ];
  if (skipped > 0) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${String(skipped)}`);
  let previous: WindowSegment | Gap | undefined = skipped > 0 ? listed[skipped - 1] : undefined;
  for (const segment of listed.slice(skipped)) {
    const gap = previous !== undefined && previous.epoch !== segment.epoch;
    if (gap) lines.push('#EXT-X-DISCONTINUITY');
    // The wall clock on the first listed segment and after each gap: the player counts the rest.
    if (previous === undefined || gap || segment === listed[skipped]) {
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${dateOf(segment.start)}`);
    }
    // A slot without a segment: no media there, and no file to ask for.
    if ('gap' in segment) lines.push('#EXT-X-GAP');
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, `${String(segment.sequence)}.mp3`);
    previous = segment;
  }
  return `${lines.join('\n')}\n`;
}

/** The multivariant playlist: one variant per rendition, the normal one first. */
export function multivariantPlaylist(variants: readonly VariantEntry[]): string {
  const lines = ['#EXTM3U', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const variant of variants) {
    const name = variant.label.replace(/["\r\n]/g, '');
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${String(Math.round(variant.bitrate * 1000))},CODECS="${MP3_CODECS}",NAME="${name}"`,
      `${variant.id}/index.m3u8`,
    );
  }
  return `${lines.join('\n')}\n`;
}
