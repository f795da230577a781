/**
 * The timeline's playlists read back as a player reads them (RFC 8216 and its second edition, for
 * EXT-X-SKIP), for the tests: strict, so that a line out of place fails the test that reads it.
 */

export interface ReadSegment {
  /** Its media sequence number, counted from EXT-X-MEDIA-SEQUENCE (skipped segments included). */
  sequence: number;
  uri: string;
  /** EXTINF, seconds. */
  duration: number;
  /** An EXT-X-DISCONTINUITY before it. */
  discontinuity: boolean;
  /** EXT-X-GAP: a slot with no media, not to be fetched. */
  gap: boolean;
  /**
   * Its discontinuity sequence: EXT-X-DISCONTINUITY-SEQUENCE plus the discontinuities listed before
   * it (in a delta update, those among the skipped segments are the player's to know).
   */
  epoch: number;
  /** Its EXT-X-PROGRAM-DATE-TIME (Unix ms) when the playlist writes one on it, else null. */
  programDateTime: number | null;
}

export interface ReadMediaPlaylist {
  version: number;
  targetDuration: number;
  canSkipUntil: number | null;
  mediaSequence: number;
  discontinuitySequence: number;
  /** EXT-X-SKIP's SKIPPED-SEGMENTS, 0 without it. */
  skipped: number;
  segments: ReadSegment[];
  /** Tags a live window must not have (EXT-X-PLAYLIST-TYPE, EXT-X-ENDLIST), if any. */
  closing: string[];
}

function attributes(list: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) {
    found.set(match[1] ?? '', (match[2] ?? '').replace(/^"|"$/g, ''));
  }
  return found;
}

function integer(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new Error(`${what} : pas un entier (${String(text)})`);
  return Number(text);
}

/** A media playlist, or an error naming the line that is not what a player expects. */
export function readMediaPlaylist(text: string): ReadMediaPlaylist {
  const lines = text.split('\n');
  if (lines[0] !== '#EXTM3U') throw new Error('pas de #EXTM3U en tête');
  if (lines.at(-1) !== '') throw new Error('pas de fin de ligne finale');
  const read: ReadMediaPlaylist = {
    version: 1,
    targetDuration: Number.NaN,
    canSkipUntil: null,
    mediaSequence: 0,
    discontinuitySequence: 0,
    skipped: 0,
    segments: [],
    closing: [],
  };
  interface Pending {
    duration: number | null;
    discontinuity: boolean;
    gap: boolean;
    programDateTime: number | null;
  }
  const none: Pending = { duration: null, discontinuity: false, gap: false, programDateTime: null };
  let pending = { ...none };
  let epoch: number | null = null;
  for (const line of lines.slice(1, -1)) {
    const [tag, value = ''] = line.split(/:(.*)/s);
    if (!line.startsWith('#')) {
      if (pending.duration === null) throw new Error(`segment sans EXTINF : ${line}`);
      epoch ??= read.discontinuitySequence;
      if (pending.discontinuity) epoch += 1;
      read.segments.push({
        sequence: read.mediaSequence + read.skipped + read.segments.length,
        uri: line,
        duration: pending.duration,
        discontinuity: pending.discontinuity,
        gap: pending.gap,
        epoch,
        programDateTime: pending.programDateTime,
      });
      pending = { ...none };
      continue;
    }
    switch (tag) {
      case '#EXT-X-VERSION':
        read.version = integer(value, tag);
        break;
      case '#EXT-X-TARGETDURATION':
        read.targetDuration = integer(value, tag);
        break;
      case '#EXT-X-SERVER-CONTROL':
        read.canSkipUntil = Number(attributes(value).get('CAN-SKIP-UNTIL'));
        break;
      case '#EXT-X-MEDIA-SEQUENCE':
        read.mediaSequence = integer(value, tag);
        break;
      case '#EXT-X-DISCONTINUITY-SEQUENCE':
        read.discontinuitySequence = integer(value, tag);
        break;
      case '#EXT-X-SKIP':
        if (read.segments.length > 0) throw new Error('EXT-X-SKIP après un segment');
        read.skipped = integer(attributes(value).get('SKIPPED-SEGMENTS'), tag);
        break;
      case '#EXT-X-DISCONTINUITY':
        pending.discontinuity = true;
        break;
      case '#EXT-X-GAP':
        pending.gap = true;
        break;
      case '#EXT-X-PROGRAM-DATE-TIME': {
        const at = Date.parse(value);
        if (!Number.isFinite(at)) throw new Error(`date illisible : ${value}`);
        pending.programDateTime = at;
        break;
      }
      case '#EXTINF': {
        const duration = Number(value.split(',')[0]);
        if (!(duration > 0)) throw new Error(`EXTINF illisible : ${value}`);
        pending.duration = duration;
        break;
      }
      case '#EXT-X-PLAYLIST-TYPE':
      case '#EXT-X-ENDLIST':
        read.closing.push(line);
        break;
      default:
        throw new Error(`ligne inattendue : ${line}`);
    }
  }
  if (pending.duration !== null) throw new Error('EXTINF sans segment à la fin');
  return read;
}

export interface ReadVariant {
  bandwidth: number;
  codecs: string;
  name: string;
  uri: string;
}

/** A multivariant playlist's variants, in order. */
export function readMultivariantPlaylist(text: string): ReadVariant[] {
  const lines = text.split('\n');
  if (lines[0] !== '#EXTM3U') throw new Error('pas de #EXTM3U en tête');
  const variants: ReadVariant[] = [];
  let pending: Map<string, string> | null = null;
  for (const line of lines.slice(1)) {
    if (line === '' || line === '#EXT-X-INDEPENDENT-SEGMENTS') continue;
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      pending = attributes(line.slice('#EXT-X-STREAM-INF:'.length));
      continue;
    }
    if (line.startsWith('#') || pending === null) throw new Error(`ligne inattendue : ${line}`);
    variants.push({
      bandwidth: Number(pending.get('BANDWIDTH')),
      codecs: pending.get('CODECS') ?? '',
      name: pending.get('NAME') ?? '',
      uri: line,
    });
    pending = null;
  }
  return variants;
}
