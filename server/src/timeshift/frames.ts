import { readFrameHeader } from './mp3';

/** One MPEG audio frame read from a live stream: its bytes and its playing time. */
export interface Frame {
  bytes: Buffer;
  sampleRate: number;
  samplesPerFrame: number;
  /** Playing time, in milliseconds. */
  ms: number;
}

/**
 * Bytes without a frame a stream may send before it is refused (docs/timeshift.md, « A stream that
 * is not MP3 »): 64 KiB is several seconds of any MP3 bit rate, and more than an ID3 tag or a
 * burst of noise between frames.
 */
export const MAX_GARBAGE_BYTES = 64 * 1024;
/** The longest layer III frame is 1,441 bytes (320 kb/s at 32 kHz): nothing more is ever held. */
const MAX_HELD_BYTES = 4096;

export class NotMp3Error extends Error {
  constructor(garbage: number) {
    super(`flux refusé : ${String(garbage)} octets sans trame MP3`);
    this.name = 'NotMp3Error';
  }
}

/**
 * Splits a live MP3 stream into whole frames as its bytes arrive, with the demo's frame reader
 * (server/src/timeshift/mp3.ts). A frame is taken only when the bytes after it start another frame
 * (or an ID3 tag): a header whose length lies, or a sync word inside noise, is skipped one byte
 * at a time. More than MAX_GARBAGE_BYTES without a frame throws NotMp3Error. Held bytes stay under
 * MAX_HELD_BYTES plus one chunk, whatever the stream sends.
 */
export class FrameSplitter {
  private held: Buffer = Buffer.alloc(0);
  private garbage = 0;

  /** Bytes kept for the next push: part of a frame, or of what may start one. */
  get heldBytes(): number {
    return this.held.length;
  }

  /** The frames completed by `chunk`, in order. */
  push(chunk: Buffer): Frame[] {
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const frames: Frame[] = [];
    let at = 0;
    while (at + 4 <= data.length) {
      const header = readFrameHeader(data, at);
      if (header === null) {
        at += this.skip(data, at);
        continue;
      }
      const next = at + header.size;
      // The next frame's header must be there to believe this one's length (an ID3 tag's, ten bytes).
      if (next + (data[next] === 0x49 ? 10 : 4) > data.length) break;
      if (readFrameHeader(data, next) === null && !isId3(data, next)) {
        at += this.skip(data, at);
        continue;
      }
      frames.push({
        bytes: Buffer.from(data.subarray(at, next)),
        sampleRate: header.sampleRate,
        samplesPerFrame: header.samplesPerFrame,
        ms: (header.samplesPerFrame / header.sampleRate) * 1000,
      });
      this.garbage = 0;
      at = next;
    }
    const rest = data.subarray(at);
    if (rest.length > MAX_HELD_BYTES) {
      this.garbage += rest.length - MAX_HELD_BYTES;
      this.check();
      this.held = Buffer.from(rest.subarray(rest.length - MAX_HELD_BYTES));
    } else {
      this.held = Buffer.from(rest);
    }
    return frames;
  }

  private skip(data: Buffer, at: number): number {
    // An ID3 tag between frames (some encoders send one at each title) is skipped whole.
    const tag = isId3(data, at) ? id3Size(data, at) : 0;
    const step = tag > 0 && at + tag <= data.length ? tag : 1;
    this.garbage += step;
    this.check();
    return step;
  }

  private check(): void {
    if (this.garbage > MAX_GARBAGE_BYTES) throw new NotMp3Error(this.garbage);
  }
}

function isId3(data: Buffer, at: number): boolean {
  return at + 10 <= data.length && data[at] === 0x49 && data[at + 1] === 0x44 && data[at + 2] === 0x33;
}

function id3Size(data: Buffer, at: number): number {
  const size =
    ((data[at + 6] ?? 0) << 21) | ((data[at + 7] ?? 0) << 14) | ((data[at + 8] ?? 0) << 7) | (data[at + 9] ?? 0);
  return 10 + size;
}
