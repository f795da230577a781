import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { pictureSrcSet, residenceHeaderSrcSet, residencePictureUrls } from '@collectif/shared/pictures';
import {
  createPictures,
  namedPictures,
  PICTURE_PURPOSES,
  PictureRefused,
  PictureUnwritable,
  storePicture,
  type PicturePurpose,
  type PictureRefusal,
} from './pictures';
import { avif, BLUE, cameraJpeg, colourAt, gif, png, pngBomb, RED, svg } from './testing/pictures';

// The pictures editors upload (docs/content.md, « Pictures »): JPEG, PNG, WebP or AVIF recognised by
// their bytes, turned upright, cut to each width of their purpose as WebP without metadata, named by
// their content; anything else refused in French, saying what is accepted.

const MB = 1024 * 1024;
const limits = { maxBytes: 10 * MB };
const fresh = () => mkdtempSync(join(tmpdir(), 'images-'));

/** The widths a `srcset` names, smallest first. */
const widthsOf = (srcset: string | undefined) =>
  (srcset ?? '')
    .split(', ')
    .map((entry) => Number(/ (\d+)w$/.exec(entry)?.[1]))
    .sort((a, b) => a - b);

async function refusal(bytes: Buffer, purpose: PicturePurpose = 'cover', maxPixels?: number) {
  try {
    await storePicture(bytes, purpose, {
      dir: fresh(),
      ...limits,
      ...(maxPixels === undefined ? {} : { maxPixels }),
    });
  } catch (error) {
    if (error instanceof PictureRefused) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error('image acceptée');
}

const ACCEPTED = 'Images acceptées : JPEG, PNG, WebP ou AVIF, de 10 Mo et 50 mégapixels au plus.';

describe('a picture stored', () => {
  it('turns a camera’s JPEG upright, cuts it to each width of its purpose, as WebP without metadata', async () => {
    const source = await cameraJpeg();
    const before = await sharp(source).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('Camille');
    expect(before.icc).toBeDefined();

    const dir = fresh();
    const { picture, files } = await storePicture(source, 'portrait', { dir, ...limits });
    expect(picture.widths).toEqual([400, 800]);
    expect(picture).toMatchObject({ width: 800, height: 800 });
    expect(picture.src).toMatch(/^\/media\/[0-9a-f]{32}-800\.webp$/);
    expect(picture.srcset).toBe(`${picture.src.replace('-800', '-400')} 400w, ${picture.src} 800w`);
    expect(readdirSync(dir).sort()).toEqual(files.map(({ name }) => name).sort());

    for (const { name } of files) {
      const written = readFileSync(join(dir, name));
      const metadata = await sharp(written).metadata();
      const width = Number(/-(\d+)\.webp$/.exec(name)?.[1]);
      expect(metadata).toMatchObject({ format: 'webp', width, height: width, space: 'srgb' });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
      expect(written.toString('latin1')).not.toContain('Camille');
    }
    // Shown upright: red on top, blue below (stored on its side, red left and blue right).
    const large = readFileSync(join(dir, files.find(({ name }) => name.endsWith('-800.webp'))?.name ?? ''));
    const close = (colour: { r: number; g: number; b: number }, expected: typeof RED) =>
      Math.abs(colour.r - expected.r) + Math.abs(colour.g - expected.g) + Math.abs(colour.b - expected.b) < 40;
    expect(close(await colourAt(large, 400, 100), RED)).toBe(true);
    expect(close(await colourAt(large, 400, 700), BLUE)).toBe(true);
  });

  it.each([
    { format: 'PNG', make: png, purpose: 'slide' },
    { format: 'AVIF', make: avif, purpose: 'header' },
  ] as const)('takes $format, cut to the sizes of a $purpose', async ({ make, purpose }) => {
    const dir = fresh();
    const { picture, files } = await storePicture(await make(), purpose, { dir, ...limits });
    const sizes = [...PICTURE_PURPOSES[purpose]].reverse();
    expect(picture.widths).toEqual(sizes.map(({ width }) => width));
    for (const [i, { width, height }] of sizes.entries()) {
      const metadata = await sharp(readFileSync(join(dir, files[sizes.length - 1 - i]?.name ?? ''))).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width, height });
    }
  });

  it('is one picture when sent twice, another for another purpose', async () => {
    const dir = fresh();
    const source = await png();
    const first = await storePicture(source, 'cover', { dir, ...limits });
    const written = statSync(join(dir, first.files[0]?.name ?? '')).mtimeMs;
    const again = await storePicture(Buffer.from(source), 'cover', { dir, ...limits });
    expect(again.picture).toEqual(first.picture);
    expect(statSync(join(dir, first.files[0]?.name ?? '')).mtimeMs).toBe(written);
    const slide = await storePicture(source, 'slide', { dir, ...limits });
    expect(slide.picture.src).not.toBe(first.picture.src);
    expect(readdirSync(dir)).toHaveLength(4);
  });

  it('comes in the widths the build makes of today’s pictures', () => {
    const widths = (purpose: PicturePurpose) => PICTURE_PURPOSES[purpose].map(({ width }) => width).reverse();
    expect(widths('portrait')).toEqual(widthsOf(residencePictureUrls('x').cardSrcSet));
    expect(widths('header')).toEqual(widthsOf(residenceHeaderSrcSet('x')));
    expect(widths('cover')).toEqual(widthsOf(pictureSrcSet('/assets/images/releases/x.webp')));
  });
});

describe('a picture refused, saying what is accepted', () => {
  it.each<[string, () => Buffer | Promise<Buffer>, PictureRefusal, string]>([
    [
      'a text file named .jpg',
      () => Buffer.from('Ceci n’est pas une image.'),
      'format',
      'Fichier refusé : ce n’est pas une image reconnue.',
    ],
    ['a GIF', gif, 'format', 'Image refusée : le format GIF n’est pas accepté.'],
    ['an SVG', svg, 'format', 'Image refusée : le format SVG n’est pas accepté.'],
    ['nothing', () => Buffer.alloc(0), 'empty', 'Aucune image reçue.'],
    [
      'a JPEG cut short',
      async () => {
        const whole = await cameraJpeg();
        return whole.subarray(0, Math.floor(whole.length * 0.6));
      },
      'unreadable',
      'Image refusée : le fichier est abîmé ou incomplet.',
    ],
  ])('%s', async (_what, make, reason, start) => {
    expect(await refusal(await make())).toEqual({ reason, message: `${start} ${ACCEPTED}` });
  });

  it('over the size cap, before reading it', async () => {
    const big = Buffer.concat([await png(), Buffer.alloc(10 * MB)]);
    expect(await refusal(big)).toEqual({
      reason: 'too_large',
      message: `Image refusée : le fichier dépasse 10 Mo. ${ACCEPTED}`,
    });
  });

  it('with more pixels than the cap, from its header alone (a decompression bomb)', async () => {
    expect(await refusal(await pngBomb())).toEqual({
      reason: 'too_many_pixels',
      // Thousands grouped as French writes them, with a narrow no-break space.
      message: `Image refusée : 20\u202f000 × 20\u202f000 pixels, c’est plus de 50 mégapixels. ${ACCEPTED}`,
    });
    expect((await refusal(await png(), 'cover', 50_000)).reason).toBe('too_many_pixels');
  });
});

describe('a picture that cannot be kept', () => {
  it('says why when its folder refuses the write, and leaves nothing', async () => {
    const parent = fresh();
    const dir = join(parent, 'pictures');
    writeFileSync(dir, 'un fichier à la place du dossier');
    await expect(storePicture(await png(), 'cover', { dir, ...limits })).rejects.toBeInstanceOf(PictureUnwritable);
    expect(readdirSync(parent)).toEqual(['pictures']);
  });
});

/** Redis as the instances share pictures, in memory: `held` loses a picture as its expiry would. */
function sharedInMemory() {
  const held = new Map<string, Buffer>();
  const kept: string[][] = [];
  const shared = {
    put: (files: readonly { name: string; bytes: Buffer }[]) => {
      for (const { name, bytes } of files) if (!held.has(name)) held.set(name, bytes);
      return Promise.resolve();
    },
    get: (name: string) => Promise.resolve(held.get(name) ?? null),
    keep: (names: readonly string[]) => {
      kept.push([...names]);
      return Promise.resolve(names.filter((name) => !held.has(name)));
    },
  };
  return { held, kept, shared };
}

describe('the pictures of several instances', () => {
  it('takes from the others (Redis) a picture it lacks, and knows no other name', async () => {
    const { shared } = sharedInMemory();
    const here = createPictures({ dir: fresh(), shared, ...limits });
    const there = createPictures({ dir: fresh(), shared, ...limits });
    const picture = await here.store(await png(), 'cover');
    const name = picture.src.slice('/media/'.length);
    expect(readdirSync(there.dir)).toEqual([]);
    expect(await there.has(name)).toBe(true);
    expect(readFileSync(join(there.dir, name))).toEqual(readFileSync(join(here.dir, name)));
    for (const other of ['../store.ts', `${name}/..`, 'a.webp', `${name.slice(0, -5)}.png`, `x${name}`]) {
      expect(await there.has(other)).toBe(false);
    }
    expect(await there.has(`${'0'.repeat(32)}-600.webp`)).toBe(false);
  });
});

describe('the pictures the content names', () => {
  it('are every width of each uploaded picture a version names, and nothing else', () => {
    const portrait = `${'a'.repeat(32)}-800.webp`;
    const header = `${'b'.repeat(32)}-1600.webp`;
    const team = `${'c'.repeat(32)}-480.webp`;
    const text = JSON.stringify([
      { portrait: `/media/${portrait}`, header: `/media/${header}`, imagePath: `/media/${team}` },
      { portrait: '/assets/images/residences/axonberg-400.webp', image: '/media/../../etc/passwd' },
    ]);
    expect(namedPictures(text)).toEqual(
      [portrait, `${'a'.repeat(32)}-400.webp`, header, `${'b'.repeat(32)}-800.webp`, team].sort(),
    );
  });

  it('are kept in Redis, and given again from an instance’s folder when Redis lost them', async () => {
    const { held, kept, shared } = sharedInMemory();
    const here = createPictures({ dir: fresh(), shared, ...limits });
    const there = createPictures({ dir: fresh(), shared, ...limits });
    const picture = await here.store(await png(), 'portrait');
    const names = namedPictures(JSON.stringify({ portrait: picture.src }));
    expect([...held.keys()].sort()).toEqual(names);

    // Its time in Redis over (nobody named it for 30 days), then a version names it again.
    held.clear();
    expect(await there.keep(JSON.stringify({ portrait: picture.src }))).toEqual([]);
    expect(held.size).toBe(0);
    expect(await here.keep(JSON.stringify({ portrait: picture.src }))).toEqual(names);
    expect(kept.at(-1)).toEqual(names);
    expect(await there.has(picture.src.slice('/media/'.length))).toBe(true);

    // Named by nothing uploaded: Redis is not asked.
    const asked = kept.length;
    expect(await here.keep(JSON.stringify({ portrait: '/assets/images/residences/axonberg-800.webp' }))).toEqual([]);
    expect(kept).toHaveLength(asked);
  });
});

describe('the uploads an instance holds', () => {
  it('are at most `uploadsAtOnce`: past them none is admitted until one gives its place back', () => {
    const pictures = createPictures({ dir: fresh(), shared: null, ...limits, uploadsAtOnce: 2 });
    const first = pictures.admit();
    const second = pictures.admit();
    expect([first === null, second === null, pictures.uploading]).toEqual([false, false, 2]);
    expect(pictures.admit()).toBeNull();
    first?.();
    // Given back once, however often its end is said (its answer sent, then its connection closed).
    first?.();
    expect(pictures.uploading).toBe(1);
    expect(pictures.admit()).not.toBeNull();
    expect(pictures.admit()).toBeNull();
  });
});
