// Synthesises the demo audio the embedded radio plays (issue 3): a seamless loop for the live stream
// and a few replay files, made here from sine tones and soft percussion, encoded with lamejs.
// Nothing is downloaded; the same code always writes the same files.
//   node server/scripts/demo-audio.mjs [output dir]
// Encoding is the slow part (lamejs runs in JavaScript), so the files are short, mono, 22.05 kHz
// (MPEG-2 layer III, which every browser plays), and encoded in parallel worker threads. The live
// loop is written twice, for the radio's two demo mounts (docs/server.md, « Demo mode »): the normal
// one at 128 kb/s and the light one, « Économe », at 48 kb/s; the replays at 64 kb/s.
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Mp3Encoder } from '@breezystack/lamejs';

export const DEMO_AUDIO_DIR = fileURLToPath(new URL('../.demo/', import.meta.url));
export const SAMPLE_RATE = 22050;
/** The replays' bit rate; a piece may name its own (`kbps`). */
export const BITRATE_KBPS = 64;
/** Samples per MPEG-2 layer III frame: the live loop is cut on this grid. */
const FRAME_SAMPLES = 576;
/** Frames encoded before and after the live loop so the kept frames start and end mid-music. */
const LOOP_MARGIN_FRAMES = 8;

/**
 * The live loop: 16 bars at 120 bpm, exactly 32 s, i.e. 1225 frames, so it repeats without a seam.
 * Both mounts are the same music at the same sample rate, so the same 1225 frames of 576 samples: on
 * the server's one clock they are at the same point of the loop.
 */
const LIVE = {
  loop: true,
  bpm: 120,
  bars: 16,
  seed: 11,
  chords: [
    [57, 60, 64, 67],
    [53, 57, 60, 64],
    [48, 52, 55, 60],
    [55, 59, 62, 67],
  ],
  kick: [0, 2],
  snare: [1, 3],
  hats: true,
  arp: [0, 2, 1, 3, 2, 1, 3, 2],
};

/**
 * The pieces. Chords are MIDI note numbers; `bars` at `bpm` in 4/4 gives the length; `kbps`, the
 * bit rate (BITRATE_KBPS when unset).
 */
export const PIECES = [
  { file: 'live.mp3', ...LIVE, kbps: 128 },
  { file: 'live-econome.mp3', ...LIVE, kbps: 48 },
  {
    file: 'replays/lever-du-jour.mp3',
    bpm: 96,
    bars: 24,
    seed: 23,
    chords: [
      [50, 54, 57, 61],
      [47, 50, 54, 57],
      [55, 59, 62, 66],
      [57, 61, 64, 69],
    ],
    kick: [0, 2.5],
    snare: [],
    hats: true,
    arp: [0, 1, 2, 3, 2, 1, 0, 2],
  },
  {
    file: 'replays/basse-frequence.mp3',
    bpm: 140,
    bars: 34,
    seed: 37,
    chords: [
      [52, 55, 59],
      [48, 52, 55],
      [50, 54, 57],
      [47, 50, 54],
    ],
    kick: [0, 1.5],
    snare: [2],
    hats: false,
    arp: [0, -1, 2, -1, 1, -1, 2, 0],
  },
  {
    file: 'replays/pluie-douce.mp3',
    bpm: 84,
    bars: 21,
    seed: 41,
    chords: [
      [53, 57, 60, 64],
      [52, 55, 59, 62],
      [50, 53, 57, 60],
      [48, 52, 55, 59],
    ],
    kick: [0, 2.75],
    snare: [1, 3],
    hats: true,
    arp: [3, 2, 1, 0, 1, 2, 3, -1],
  },
  {
    file: 'replays/nuit-blanche.mp3',
    bpm: 124,
    bars: 31,
    seed: 53,
    chords: [
      [55, 58, 62, 65],
      [51, 55, 58, 62],
      [58, 62, 65, 69],
      [53, 57, 60, 65],
    ],
    kick: [0, 1, 2, 3],
    snare: [1, 3],
    hats: true,
    arp: [0, 2, 3, 2, 1, 2, 3, 2],
  },
];

const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);

function random(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** Renders a sound once into a buffer; notes repeat, so the mix adds cached buffers. */
function voice(seconds, sample) {
  const buffer = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  for (let i = 0; i < buffer.length; i += 1) buffer[i] = sample(i / SAMPLE_RATE);
  return buffer;
}

/** Renders a piece to 16-bit samples; a looping piece wraps its tails onto its start. */
export function renderPiece(piece) {
  const beat = 60 / piece.bpm;
  const barSeconds = 4 * beat;
  const length = Math.round(piece.bars * barSeconds * SAMPLE_RATE);
  const out = new Float32Array(length);
  const noise = random(piece.seed);
  const cache = new Map();
  const cached = (key, make) => {
    let buffer = cache.get(key);
    if (buffer === undefined) {
      buffer = make();
      cache.set(key, buffer);
    }
    return buffer;
  };
  const add = (startSeconds, buffer, gain = 1) => {
    const start = Math.round(startSeconds * SAMPLE_RATE);
    for (let i = 0; i < buffer.length; i += 1) {
      let at = start + i;
      if (piece.loop) at %= length;
      else if (at >= length) break;
      out[at] += gain * buffer[i];
    }
  };

  const pad = (chord) =>
    cached(`pad${chord.join()}`, () =>
      voice(barSeconds + 0.8, (t) => {
        // Detuned sine pairs, slow attack, a release that overlaps the next chord.
        const env = t < 0.35 ? t / 0.35 : t < barSeconds ? 1 : Math.max(0, 1 - (t - barSeconds) / 0.8);
        let sum = 0;
        for (const note of chord) {
          const f = hz(note);
          sum += 0.045 * (Math.sin(2 * Math.PI * f * 1.003 * t) + Math.sin(2 * Math.PI * f * 0.997 * t));
          sum += 0.012 * Math.sin(2 * Math.PI * f * 2 * t);
        }
        return env * sum;
      }),
    );
  const bass = (note) =>
    cached(`bass${String(note)}`, () => {
      const f = hz(note);
      const seconds = beat * 1.2;
      return voice(seconds, (t) => {
        const env = Math.min(1, t / 0.008) * Math.exp(-t * 2.2) * Math.min(1, (seconds - t) / 0.05);
        return 0.28 * env * (Math.sin(2 * Math.PI * f * t) + 0.25 * Math.sin(4 * Math.PI * f * t));
      });
    });
  const kick = cached('kick', () => {
    let phase = 0;
    return voice(0.4, (t) => {
      phase += (2 * Math.PI * (45 + 75 * Math.exp(-t * 25))) / SAMPLE_RATE;
      return 0.5 * Math.exp(-t * 9) * Math.sin(phase);
    });
  });
  const snare = cached('snare', () => {
    let low = 0;
    return voice(0.25, (t) => {
      low += 0.35 * (noise() * 2 - 1 - low);
      return Math.exp(-t * 22) * (0.12 * low + 0.08 * Math.sin(2 * Math.PI * 185 * t));
    });
  });
  const hat = cached('hat', () => {
    let previous = 0;
    return voice(0.06, (t) => {
      const white = noise() * 2 - 1;
      const high = white - previous;
      previous = white;
      return 0.035 * Math.exp(-t * 70) * high;
    });
  });
  const pluck = (note) =>
    cached(`pluck${String(note)}`, () => {
      const f = hz(note);
      return voice(0.7, (t) => {
        const env = Math.min(1, t / 0.004) * Math.exp(-t * 6);
        return 0.07 * env * (Math.sin(2 * Math.PI * f * t) + 0.2 * Math.sin(6 * Math.PI * f * t));
      });
    });

  // A loop plays everything all the time; a replay breathes: intro, full, a break, full, outro.
  const sectionOf = (bar) => {
    if (piece.loop) return { drums: true, bass: true, arp: true };
    const fromEnd = piece.bars - bar;
    const middle = Math.floor(piece.bars / 2);
    return {
      drums: bar >= 2 && fromEnd > 2 && (bar < middle || bar >= middle + 2),
      bass: bar >= 1 && fromEnd > 1,
      arp: bar >= 4 && fromEnd > 1,
    };
  };

  for (let bar = 0; bar < piece.bars; bar += 1) {
    const chord = piece.chords[bar % piece.chords.length];
    const barStart = bar * barSeconds;
    const section = sectionOf(bar);
    add(barStart, pad(chord));
    if (section.bass) for (const at of [0, 1.5, 2.5]) add(barStart + at * beat, bass(chord[0] - 24));
    if (section.drums) {
      for (const at of piece.kick) add(barStart + at * beat, kick);
      for (const at of piece.snare) add(barStart + at * beat, snare);
      if (piece.hats) for (let eighth = 1; eighth < 8; eighth += 2) add(barStart + (eighth * beat) / 2, hat);
    }
    if (section.arp) {
      // Plucked chord tones in eighths, each with a dub echo three eighths later.
      piece.arp.forEach((index, step) => {
        if (index < 0) return;
        const sound = pluck(chord[index % chord.length] + 12);
        for (let echo = 0; echo < 3; echo += 1)
          add(barStart + (step * beat) / 2 + (echo * 3 * beat) / 2, sound, 0.45 ** echo);
      });
    }
  }

  if (!piece.loop) {
    const fade = Math.round(2 * SAMPLE_RATE);
    for (let i = 0; i < fade; i += 1) {
      out[i] *= i / fade;
      out[length - 1 - i] *= i / fade;
    }
  }
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  const scale = peak > 0 ? (0.8 * 32767) / peak : 0;
  const pcm = new Int16Array(length);
  for (let i = 0; i < length; i += 1) pcm[i] = Math.round(out[i] * scale);
  return pcm;
}

function encode(pcm, kbps) {
  const encoder = new Mp3Encoder(1, SAMPLE_RATE, kbps);
  const chunks = [];
  const block = FRAME_SAMPLES * 32;
  for (let i = 0; i < pcm.length; i += block)
    chunks.push(Buffer.from(encoder.encodeBuffer(pcm.subarray(i, i + block))));
  chunks.push(Buffer.from(encoder.flush()));
  return Buffer.concat(chunks);
}

/** Byte offsets of the MPEG-2 layer III frames lamejs writes (constant bit rate, no tag frame). */
function frameOffsets(mp3, kbps) {
  const offsets = [];
  let at = 0;
  while (at + 4 <= mp3.length && mp3[at] === 0xff && (mp3[at + 1] & 0xe0) === 0xe0) {
    offsets.push(at);
    const padding = (mp3[at + 2] >> 1) & 1;
    at += Math.floor((72 * kbps * 1000) / SAMPLE_RATE) + padding;
  }
  offsets.push(at);
  return offsets;
}

/**
 * A loop that repeats without a click: the loop is encoded with a few frames of its own tail before
 * it and of its head after it, and exactly one period of frames is kept from the middle. lamejs
 * never uses the bit reservoir, so every kept frame decodes on its own.
 */
function encodeLoop(pcm, kbps) {
  const margin = LOOP_MARGIN_FRAMES * FRAME_SAMPLES;
  const padded = new Int16Array(pcm.length + 2 * margin);
  padded.set(pcm.subarray(pcm.length - margin), 0);
  padded.set(pcm, margin);
  padded.set(pcm.subarray(0, margin), margin + pcm.length);
  const frames = pcm.length / FRAME_SAMPLES;
  if (!Number.isInteger(frames))
    throw new Error('une boucle doit durer un nombre entier de trames de 576 échantillons');
  const mp3 = encode(padded, kbps);
  const offsets = frameOffsets(mp3, kbps);
  return mp3.subarray(offsets[LOOP_MARGIN_FRAMES], offsets[LOOP_MARGIN_FRAMES + frames]);
}

function buildPiece(piece) {
  const pcm = renderPiece(piece);
  const kbps = piece.kbps ?? BITRATE_KBPS;
  return piece.loop ? encodeLoop(pcm, kbps) : encode(pcm, kbps);
}

/** MPEG-2 layer III bit rates by their header index. */
const MPEG2_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/**
 * The bit rate of a file's first frame, or null when it does not begin with an MPEG-2 layer III frame:
 * a file written by an earlier version of this script at another rate (the live loop was 64 kb/s) is
 * written again.
 */
export function fileKbps(path) {
  const head = Buffer.alloc(4);
  let fd;
  try {
    fd = openSync(path, 'r');
    if (readSync(fd, head, 0, 4, 0) < 4) return null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head[0] !== 0xff || (head[1] & 0xfe) !== 0xf2) return null;
  return MPEG2_KBPS[head[2] >> 4] ?? null;
}

/**
 * Encodes some pieces in one worker thread, writing each file as soon as it is ready. One worker
 * takes several pieces, so lamejs is compiled (JIT) once per worker rather than once per file.
 */
function encodeInWorker(pieces, dir) {
  return new Promise((done, fail) => {
    // No inherited Node options: a parent run with `--input-type` or a loader would break the worker.
    const worker = new Worker(new URL(import.meta.url), { workerData: { demoAudioPieces: pieces }, execArgv: [] });
    worker.on('message', ({ file, bytes }) => {
      const path = join(dir, file);
      mkdirSync(dirname(path), { recursive: true });
      // Written aside then renamed, so a server reading the folder never sees half a file.
      const temporary = `${path}.${String(process.pid)}.tmp`;
      writeFileSync(temporary, Buffer.from(bytes));
      renameSync(temporary, path);
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (code === 0) done();
      else fail(new Error(`encodage interrompu (${String(code)})`));
    });
  });
}

/**
 * Writes the demo audio files that are missing into `dir` (server/.demo/ by default), or that have
 * another bit rate than their piece's, and returns how many it wrote. The others are kept: the same
 * code always makes the same files.
 */
export async function generateDemoAudio(dir = DEMO_AUDIO_DIR, pieces = PIECES) {
  const missing = pieces.filter((piece) => {
    const path = join(dir, piece.file);
    return !existsSync(path) || fileKbps(path) !== (piece.kbps ?? BITRATE_KBPS);
  });
  if (missing.length === 0) return 0;
  // Longest first, each to the least loaded worker: both cores finish at about the same time.
  const groups = Array.from({ length: Math.max(1, Math.min(2, availableParallelism(), missing.length)) }, () => ({
    seconds: 0,
    pieces: [],
  }));
  const seconds = (piece) => (piece.bars * 240) / piece.bpm;
  for (const piece of [...missing].sort((a, b) => seconds(b) - seconds(a))) {
    const group = groups.reduce((least, each) => (each.seconds < least.seconds ? each : least));
    group.pieces.push(piece);
    group.seconds += seconds(piece);
  }
  await Promise.all(groups.map((group) => encodeInWorker(group.pieces, dir)));
  return missing.length;
}

if (!isMainThread && workerData?.demoAudioPieces) {
  for (const piece of workerData.demoAudioPieces)
    parentPort.postMessage({ file: piece.file, bytes: buildPiece(piece) });
} else if (
  isMainThread &&
  process.argv[1] !== undefined &&
  resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const started = Date.now();
  const dir = process.argv[2] === undefined ? DEMO_AUDIO_DIR : resolve(process.argv[2]);
  const written = await generateDemoAudio(dir);
  console.log(`Audio de démonstration : ${String(written)} fichier(s) écrit(s) en ${String(Date.now() - started)} ms`);
}
