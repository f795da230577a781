/**
 * HLS packed audio (docs/timeshift.md, « Segments »): an MPEG audio segment starts with an ID3v2.4
 * tag whose PRIV frame `com.apple.streaming.transportStreamTimestamp` holds the timestamp of its
 * first sample, 33 bits on a 90 kHz clock, in 8 bytes big-endian. Players place the segment on
 * their timeline with it. Written by hand: it is 73 bytes of fixed shape.
 */
const OWNER = 'com.apple.streaming.transportStreamTimestamp';
const WRAP = 2n ** 33n;

/** ID3v2.4 sizes are « syncsafe »: 7 bits per byte. */
function syncsafe(size: number): Buffer {
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

/** The 90 kHz timestamp of an instant (Unix ms), wrapped to 33 bits as MPEG-TS's are. */
export function timestamp90k(ms: number): bigint {
  return BigInt(Math.round(ms * 90)) % WRAP;
}

/** The ID3 tag that starts a segment whose first sample plays at `startMs`. */
export function packedAudioTag(startMs: number): Buffer {
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64BE(timestamp90k(startMs));
  const data = Buffer.concat([Buffer.from(`${OWNER}\0`, 'latin1'), stamp]);
  const frame = Buffer.concat([Buffer.from('PRIV', 'latin1'), syncsafe(data.length), Buffer.from([0, 0]), data]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]), syncsafe(frame.length), frame]);
}

/** The timestamp a segment's tag carries, or null when the bytes do not start with one (tests, checks). */
export function readPackedTimestamp(segment: Buffer): bigint | null {
  if (segment.length < 73 || segment.subarray(0, 3).toString('latin1') !== 'ID3') return null;
  const owner = segment.indexOf(`${OWNER}\0`, 0, 'latin1');
  if (owner === -1) return null;
  return segment.readBigUInt64BE(owner + OWNER.length + 1);
}
