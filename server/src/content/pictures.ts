import { createHash } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type createSharp from 'sharp';
import type { SharpOptions } from 'sharp';
import type { SharedPictures } from '../instances/shared-state';
import { writeWhole } from '../files/whole';

/**
 * The pictures editors upload (docs/content.md, « Pictures »): a residence's portrait and header, a
 * team member's photo, a release's cover, a slide. A JPEG, PNG, WebP or AVIF, recognised by its
 * bytes (never its name or its Content-Type), at most CONTENT_PICTURE_MAX_BYTES and
 * PICTURE_MAX_PIXELS; turned upright by its EXIF orientation, then cut to each size its purpose is
 * shown at (as the build cuts today's copies) and written as WebP, without its metadata. The files
 * are named by the SHA-256 of the bytes received and the purpose, so that the same upload twice
 * is the same picture, and kept whole or not at all (written to a temporary name, then renamed)
 * under <CONTENT_DIR>/pictures/, served at /media/<name>.
 */

/**
 * The sizes each purpose comes in, largest first: the ones the build makes of today's pictures
 * (shared/src/residenceImages.mjs, shared/src/pictures.mjs, scripts/generate-assets.mjs), so a page
 * shows an uploaded picture as it shows the repository's.
 */
export const PICTURE_PURPOSES = {
  // A residence's card, square: 400 px, and 800 px for dense screens.
  portrait: [
    { width: 800, height: 800 },
    { width: 400, height: 400 },
  ],
  // A residence's header, 1600×600, and its copy for phones.
  header: [
    { width: 1600, height: 600 },
    { width: 800, height: 300 },
  ],
  // A team member's photo on the About page, 480×600, in one width.
  team: [{ width: 480, height: 600 }],
  // A release's cover, 600 px square, and its copy for a phone's grid.
  cover: [
    { width: 600, height: 600 },
    { width: 400, height: 400 },
  ],
  // A slide of the home's carousel, 1600×900, and its copy for phones.
  slide: [
    { width: 1600, height: 900 },
    { width: 800, height: 450 },
  ],
} as const satisfies Record<string, readonly { width: number; height: number }[]>;

export type PicturePurpose = keyof typeof PICTURE_PURPOSES;

export const PICTURE_PURPOSE_NAMES = Object.keys(PICTURE_PURPOSES) as PicturePurpose[];

export function isPicturePurpose(name: string): name is PicturePurpose {
  return Object.hasOwn(PICTURE_PURPOSES, name);
}

/**
 * The most pixels a picture may have (50 megapixels, a 50 MP phone's photo): its header says its
 * size before anything is decoded, so a file of a few kilobytes that would open as gigabytes of
 * pixels (a decompression bomb) is refused unread; the decoder is held to the same count.
 */
export const PICTURE_MAX_PIXELS = 50_000_000;

/** Where pictures are served (site/media.ts). */
export const MEDIA_PREFIX = '/media/';

/** A picture's file: the 32 first hex digits of its SHA-256, its width, `.webp`. */
const NAME = /^[0-9a-f]{32}-\d{1,5}\.webp$/;

export function isPictureName(name: string): boolean {
  return NAME.test(name);
}

/** How a WebP copy is written: the build's settings (scripts/generate-assets.mjs). */
const WEBP = { quality: 72, effort: 4 } as const;

/** The formats other than the four, named as an editor knows them (sharp's names for what it reads). */
const OTHER_FORMATS: Record<string, string> = {
  gif: 'GIF',
  svg: 'SVG',
  tiff: 'TIFF',
  heif: 'HEIC',
  jp2: 'JPEG 2000',
  jxl: 'JPEG XL',
  pdf: 'PDF',
  raw: 'RAW',
};

export type PictureRefusal = 'empty' | 'too_large' | 'too_many_pixels' | 'format' | 'unreadable';

/** A picture that is not stored, with why in French and what is accepted. Nothing was written. */
export class PictureRefused extends Error {
  constructor(
    readonly reason: PictureRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'PictureRefused';
  }
}

/**
 * The picture could not be kept: the folder refused the write (full, read-only), or, with
 * REDIS_URL, Redis did not take it, and the other instances could not serve it (docs/content.md).
 */
export class PictureUnwritable extends Error {
  constructor(readonly reason: string) {
    super(`l’image ne peut pas être enregistrée : ${reason}`);
    this.name = 'PictureUnwritable';
  }
}

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What a page needs to show a picture: its largest copy, every copy by width, its size. */
export interface Picture {
  src: string;
  srcset: string;
  width: number;
  height: number;
  /** The widths it comes in, smallest first. */
  widths: number[];
}

export interface StoredPicture {
  picture: Picture;
  /** The WebP files, by name. */
  files: { name: string; bytes: Buffer }[];
}

export interface PictureLimits {
  /** The largest file accepted (CONTENT_PICTURE_MAX_BYTES). */
  maxBytes: number;
  maxPixels?: number;
}

/** Numbers as French writes them (20 000, 0,5). */
const french = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });
const megabytes = (bytes: number) => `${french.format(bytes / (1024 * 1024))} Mo`;
const megapixels = (pixels: number) => `${french.format(pixels / 1_000_000)} mégapixels`;

/** What is accepted, said after each refusal. */
export function acceptedPictures({ maxBytes, maxPixels = PICTURE_MAX_PIXELS }: PictureLimits): string {
  return `Images acceptées : JPEG, PNG, WebP ou AVIF, de ${megabytes(maxBytes)} et ${megapixels(maxPixels)} au plus.`;
}

/** The refusal of a file over the cap (also said by the upload's route when Fastify cuts the body). */
export function pictureTooLarge(limits: PictureLimits): PictureRefused {
  return new PictureRefused(
    'too_large',
    `Image refusée : le fichier dépasse ${megabytes(limits.maxBytes)}. ${acceptedPictures(limits)}`,
  );
}

let loaded: Promise<typeof createSharp> | undefined;
/**
 * sharp and its libvips, loaded by the first upload: a process that receives none never loads them,
 * and a machine where they cannot load still serves the site (its uploads answer 500).
 */
function loadSharp(): Promise<typeof createSharp> {
  loaded ??= import('sharp').then((module) => module.default);
  return loaded;
}

const exists = async (path: string) => {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
};

/** Written whole or not at all; a file already there is kept (its name says its content). */
async function writeNamed(dir: string, name: string, bytes: Buffer): Promise<void> {
  const file = join(dir, name);
  if (await exists(file)) return;
  await writeWhole(file, bytes);
}

/** Refuses, from the header alone, anything but a JPEG, PNG, WebP or AVIF within the pixel cap. */
async function checkHeader(bytes: Buffer, limits: PictureLimits): Promise<void> {
  const said = acceptedPictures(limits);
  const sharp = await loadSharp();
  let metadata;
  try {
    // The header only: the pixel count is checked below, with its own message.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    if (error instanceof Error && /unsupported image format/i.test(error.message)) {
      throw new PictureRefused('format', `Fichier refusé : ce n’est pas une image reconnue. ${said}`);
    }
    throw new PictureRefused('unreadable', `Image refusée : le fichier est abîmé ou incomplet. ${said}`);
  }
  const { format, compression, width, height } = metadata;
  const accepted = ['jpeg', 'png', 'webp'].includes(format) || (format === 'heif' && compression === 'av1');
  if (!accepted) {
    const name = OTHER_FORMATS[format] ?? format.toUpperCase();
    throw new PictureRefused('format', `Image refusée : le format ${name} n’est pas accepté. ${said}`);
  }
  const maxPixels = limits.maxPixels ?? PICTURE_MAX_PIXELS;
  if (width * height > maxPixels) {
    throw new PictureRefused(
      'too_many_pixels',
      `Image refusée : ${french.format(width)} × ${french.format(height)} pixels, c’est plus de ${megapixels(maxPixels)}. ${said}`,
    );
  }
}

/**
 * Checks `bytes`, then writes its WebP copies for `purpose` under `dir` (the same bytes and purpose
 * again: the files already there). Throws PictureRefused, with a French message, for anything but
 * a JPEG, PNG, WebP or AVIF within the limits.
 */
export async function storePicture(
  bytes: Buffer,
  purpose: PicturePurpose,
  { dir, ...limits }: PictureLimits & { dir: string },
): Promise<StoredPicture> {
  if (bytes.length === 0) {
    throw new PictureRefused('empty', `Aucune image reçue. ${acceptedPictures(limits)}`);
  }
  if (bytes.length > limits.maxBytes) throw pictureTooLarge(limits);
  const sizes = PICTURE_PURPOSES[purpose];
  const hash = createHash('sha256').update(`${purpose}\n`).update(bytes).digest('hex').slice(0, 32);
  const named = sizes.map((size) => ({ ...size, name: `${hash}-${String(size.width)}.webp` }));
  let files: { name: string; bytes: Buffer }[];
  if ((await Promise.all(named.map(({ name }) => exists(join(dir, name))))).every(Boolean)) {
    files = await Promise.all(named.map(async ({ name }) => ({ name, bytes: await readFile(join(dir, name)) })));
  } else {
    await checkHeader(bytes, limits);
    const sharp = await loadSharp();
    const options: SharpOptions = {
      limitInputPixels: limits.maxPixels ?? PICTURE_MAX_PIXELS,
      failOn: 'error',
      autoOrient: true,
    };
    files = [];
    // One size after the other: one decoded picture in memory at a time.
    for (const { name, width, height } of named) {
      try {
        // sharp writes no metadata unless asked: no EXIF (place, camera), no XMP, no ICC profile
        // (the colours are converted to sRGB).
        const webp = sharp(bytes, options).resize(width, height, { fit: 'cover' }).webp(WEBP);
        files.push({ name, bytes: await webp.toBuffer() });
      } catch {
        throw new PictureRefused(
          'unreadable',
          `Image refusée : le fichier est abîmé ou incomplet. ${acceptedPictures(limits)}`,
        );
      }
    }
    try {
      await mkdir(dir, { recursive: true });
      for (const file of files) await writeNamed(dir, file.name, file.bytes);
    } catch (error) {
      throw new PictureUnwritable(why(error));
    }
  }
  const [largest] = named;
  if (largest === undefined) throw new Error(`${purpose} : aucune taille`);
  const ascending = [...named].reverse();
  return {
    picture: {
      src: `${MEDIA_PREFIX}${largest.name}`,
      srcset: ascending.map(({ name, width }) => `${MEDIA_PREFIX}${name} ${String(width)}w`).join(', '),
      width: largest.width,
      height: largest.height,
      widths: ascending.map(({ width }) => width),
    },
    files,
  };
}

export interface Pictures {
  /** <CONTENT_DIR>/pictures. */
  readonly dir: string;
  readonly limits: Required<PictureLimits>;
  /**
   * Stores a picture (storePicture) and, with REDIS_URL, gives its files to Redis before answering,
   * so that every instance can serve it at once. Throws PictureRefused, or PictureUnwritable when
   * the folder or Redis did not take it.
   */
  store(bytes: Buffer, purpose: PicturePurpose): Promise<Picture>;
  /**
   * Whether the picture of this name is in `dir`, taken from Redis first when another instance
   * stored it. False for any other name. Throws when Redis does not answer.
   */
  has(name: string): Promise<boolean>;
  /**
   * Takes one of the `uploadsAtOnce` places of an upload (from its first byte received to its
   * answer): the function that gives it back, or null when every place is taken (the upload is
   * then refused, docs/content.md, « Uploading »).
   */
  admit(): (() => void) | null;
  /** The uploads holding a place now. */
  readonly uploading: number;
  /**
   * With REDIS_URL, keeps the uploaded pictures `text` names (`/media/<name>-<width>.webp`, with
   * every other width of each) in Redis for 30 days more (PICTURE_KEPT_MS, instances/pictures.ts); one
   * Redis no longer has is given again from this instance's folder. The names given again.
   */
  keep(text: string): Promise<string[]>;
}

export interface PicturesOptions extends PictureLimits {
  dir: string;
  shared: SharedPictures | null;
  /** Uploads held at once (CONTENT_PICTURE_UPLOADS), 4 by default. */
  uploadsAtOnce?: number;
}

/** A picture's largest width, and the other widths it comes in (PICTURE_PURPOSES). */
const COMPANIONS = new Map<number, number[]>();
for (const sizes of Object.values(PICTURE_PURPOSES)) {
  const [largest, ...others] = sizes.map(({ width }) => width);
  if (largest !== undefined) COMPANIONS.set(largest, [...(COMPANIONS.get(largest) ?? []), ...others]);
}

/** Every file of the uploaded pictures a text (a version's JSON) names, each with its other widths. */
export function namedPictures(text: string): string[] {
  const names = new Set<string>();
  for (const [, hash, width] of text.matchAll(/\/media\/([0-9a-f]{32})-(\d{1,5})\.webp/g)) {
    names.add(`${hash ?? ''}-${width ?? ''}.webp`);
    for (const other of COMPANIONS.get(Number(width)) ?? []) names.add(`${hash ?? ''}-${String(other)}.webp`);
  }
  return [...names].sort();
}

export function createPictures({
  dir,
  shared,
  maxBytes,
  maxPixels = PICTURE_MAX_PIXELS,
  uploadsAtOnce = 4,
}: PicturesOptions): Pictures {
  const limits = { maxBytes, maxPixels };
  let uploading = 0;
  // One upload at a time per instance: each may decode up to 50 megapixels.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    dir,
    limits,
    store: (bytes, purpose) =>
      serially(async () => {
        const { picture, files } = await storePicture(bytes, purpose, { dir, ...limits });
        if (shared !== null) {
          try {
            await shared.put(files);
          } catch (error) {
            throw new PictureUnwritable(`Redis : ${why(error)}`);
          }
        }
        return picture;
      }),
    async has(name) {
      if (!isPictureName(name)) return false;
      if (await exists(join(dir, name))) return true;
      if (shared === null) return false;
      const bytes = await shared.get(name);
      if (bytes === null) return false;
      await mkdir(dir, { recursive: true });
      await writeNamed(dir, name, bytes);
      return true;
    },
    admit() {
      if (uploading >= uploadsAtOnce) return null;
      uploading += 1;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        uploading -= 1;
      };
    },
    get uploading() {
      return uploading;
    },
    async keep(text) {
      const names = namedPictures(text);
      if (shared === null || names.length === 0) return [];
      const missing = await shared.keep(names);
      const files: { name: string; bytes: Buffer }[] = [];
      for (const name of missing) {
        try {
          files.push({ name, bytes: await readFile(join(dir, name)) });
        } catch {
          // Not here: another instance that has it gives it again.
        }
      }
      if (files.length > 0) await shared.put(files);
      return files.map(({ name }) => name);
    },
  };
}
