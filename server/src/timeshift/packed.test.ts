import { parseMp3 } from './mp3';
import { fakeMp3 } from '../api/testing/fixtures';
import { packedAudioTag, readPackedTimestamp, timestamp90k } from './packed';

const OWNER = 'com.apple.streaming.transportStreamTimestamp';
/** MPEG-TS timestamps are 33 bits: they wrap every 2^33 ticks of 90 kHz, about 26.5 hours. */
const WRAP = 2 ** 33;

/** An ID3v2 « syncsafe » size: four bytes of seven bits. */
const syncsafe = (bytes: Buffer, at: number) =>
  ((bytes[at] ?? 0) << 21) | ((bytes[at + 1] ?? 0) << 14) | ((bytes[at + 2] ?? 0) << 7) | (bytes[at + 3] ?? 0);

/** The tag read as the HLS specification describes it (RFC 8216, 3.4), field by field. */
function readTag(tag: Buffer) {
  const frameAt = 10;
  const frameSize = syncsafe(tag, frameAt + 4);
  const data = tag.subarray(frameAt + 10, frameAt + 10 + frameSize);
  const zero = data.indexOf(0);
  return {
    magic: tag.subarray(0, 3).toString('latin1'),
    version: [tag[3], tag[4]],
    flags: tag[5],
    size: syncsafe(tag, 6),
    frameId: tag.subarray(frameAt, frameAt + 4).toString('latin1'),
    frameSize,
    frameFlags: [tag[frameAt + 8], tag[frameAt + 9]],
    owner: data.subarray(0, zero).toString('latin1'),
    timestamp: data.subarray(zero + 1),
  };
}

describe('HLS packed audio: the ID3 tag that starts each segment', () => {
  it('is an ID3v2.4 tag of one PRIV frame, com.apple.streaming.transportStreamTimestamp, 8 bytes', () => {
    const start = Date.UTC(2026, 2, 4, 21, 0, 0);
    const tag = packedAudioTag(start);
    const read = readTag(tag);
    expect(read).toMatchObject({
      magic: 'ID3',
      version: [4, 0],
      flags: 0,
      frameId: 'PRIV',
      frameFlags: [0, 0],
      owner: OWNER,
    });
    // The tag's size counts what follows its 10-byte header: the frame, its header and its data.
    expect(read.size).toBe(tag.length - 10);
    expect(read.frameSize).toBe(OWNER.length + 1 + 8);
    expect(tag).toHaveLength(73);
    expect(read.timestamp).toHaveLength(8);
    // The first 31 bits are zero; the 33 others are the 90 kHz clock, big-endian.
    expect(read.timestamp.readBigUInt64BE() >> 33n).toBe(0n);
    expect(Number(read.timestamp.readBigUInt64BE())).toBe((start * 90) % WRAP);
  });

  it('counts the 90 kHz clock of the instant, wrapped to 33 bits', () => {
    expect(timestamp90k(0)).toBe(0n);
    expect(timestamp90k(1000)).toBe(90_000n);
    // A tick is 1/90 ms: a fraction of a millisecond rounds to the nearest tick.
    expect(timestamp90k(0.5)).toBe(45n);
    // At 2^33 ticks the clock starts again from zero.
    const wrapMs = WRAP / 90;
    expect(timestamp90k(wrapMs)).toBe(0n);
    expect(timestamp90k(wrapMs - 1000 / 90)).toBe(BigInt(WRAP - 1000));
    expect(timestamp90k(wrapMs + 1000)).toBe(90_000n);
    // Today's instants are far past it: always under 2^33.
    const now = Date.UTC(2026, 2, 4, 21);
    expect(timestamp90k(now)).toBeLessThan(BigInt(WRAP));
    expect(timestamp90k(now + 10_000) - timestamp90k(now)).toBe(900_000n);
  });

  it('is read back from a segment, and two segments in a row are 90 kHz × their distance apart', () => {
    const frames = fakeMp3(20);
    const first = Date.UTC(2026, 2, 4, 21, 0, 0);
    const segment = Buffer.concat([packedAudioTag(first), frames]);
    expect(readPackedTimestamp(segment)).toBe(timestamp90k(first));
    const next = Buffer.concat([packedAudioTag(first + 10_000), frames]);
    expect((readPackedTimestamp(next) ?? 0n) - (readPackedTimestamp(segment) ?? 0n)).toBe(900_000n);
    // An MP3 reader skips the tag by its size and finds the frames after it, whole.
    const parsed = parseMp3(segment);
    expect(parsed.frames).toHaveLength(20);
    expect(parsed.frames[0]?.offset).toBe(73);
  });

  it('reads nothing from bytes that do not start with the tag', () => {
    expect(readPackedTimestamp(fakeMp3(5))).toBeNull();
    expect(readPackedTimestamp(Buffer.alloc(0))).toBeNull();
    expect(readPackedTimestamp(packedAudioTag(1000).subarray(0, 40))).toBeNull();
    // An ID3 tag of another kind (a title) carries no timestamp.
    const other = Buffer.concat([
      Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u003f', 'latin1'),
      Buffer.alloc(63),
    ]);
    expect(readPackedTimestamp(other)).toBeNull();
  });
});
