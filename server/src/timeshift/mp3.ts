/** MPEG audio frames of an mp3 file: enough to send whole frames at the pace they play. */
export interface Mp3Frames {
  /** Byte offset and size of each audio frame. */
  frames: { offset: number; size: number }[];
  sampleRate: number;
  samplesPerFrame: number;
  /** Playing time of one frame, in milliseconds. */
  frameMs: number;
  seconds: number;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

interface FrameHeader {
  size: number;
  sampleRate: number;
  samplesPerFrame: number;
  sideInfoOffset: number;
  sideInfoBytes: number;
}

/** Reads a layer III frame header at `at`, or null when the bytes there are not one. */
export function readFrameHeader(data: Uint8Array, at: number): FrameHeader | null {
  if (at + 4 > data.length) return null;
  const b1 = data[at + 1] ?? 0;
  const b2 = data[at + 2] ?? 0;
  const b3 = data[at + 3] ?? 0;
  if (data[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  if (version === 1 || layer !== 1) return null;
  const mpeg1 = version === 3;
  const bitrate = (mpeg1 ? BITRATES_V1_L3 : BITRATES_V2_L3)[(b2 >> 4) & 15] ?? 0;
  const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3];
  if (bitrate === 0 || sampleRate === undefined) return null;
  const samplesPerFrame = mpeg1 ? 1152 : 576;
  const size = Math.floor(((samplesPerFrame / 8) * bitrate * 1000) / sampleRate) + ((b2 >> 1) & 1);
  const mono = b3 >> 6 === 3;
  const sideInfoBytes = mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const crc = (b1 & 1) === 0 ? 2 : 0;
  return { size, sampleRate, samplesPerFrame, sideInfoOffset: at + 4 + crc, sideInfoBytes };
}

function id3v2Length(data: Uint8Array): number {
  if (data.length < 10 || data[0] !== 0x49 || data[1] !== 0x44 || data[2] !== 0x33) return 0;
  const size = ((data[6] ?? 0) << 21) | ((data[7] ?? 0) << 14) | ((data[8] ?? 0) << 7) | (data[9] ?? 0);
  return 10 + size;
}

/** A Xing/Info/VBRI frame describes the file and plays as silence: not part of a loop. */
function isTagFrame(data: Uint8Array, header: FrameHeader): boolean {
  const at = header.sideInfoOffset + header.sideInfoBytes;
  const tag = String.fromCharCode(...data.subarray(at, at + 4));
  const vbri = String.fromCharCode(...data.subarray(header.sideInfoOffset + 32, header.sideInfoOffset + 36));
  return tag === 'Xing' || tag === 'Info' || vbri === 'VBRI';
}

/** Splits an mp3 file into its audio frames; stops at the first bytes that are not a frame. */
export function parseMp3(data: Uint8Array): Mp3Frames {
  const frames: { offset: number; size: number }[] = [];
  let at = id3v2Length(data);
  let first: FrameHeader | undefined;
  for (let header = readFrameHeader(data, at); header !== null; header = readFrameHeader(data, at)) {
    if (at + header.size > data.length) break;
    if (first === undefined && isTagFrame(data, header)) {
      at += header.size;
      continue;
    }
    first ??= header;
    frames.push({ offset: at, size: header.size });
    at += header.size;
  }
  if (first === undefined) throw new Error('aucune trame mp3');
  const frameMs = (first.samplesPerFrame / first.sampleRate) * 1000;
  return {
    frames,
    sampleRate: first.sampleRate,
    samplesPerFrame: first.samplesPerFrame,
    frameMs,
    seconds: (frames.length * frameMs) / 1000,
  };
}
