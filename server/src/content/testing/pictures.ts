import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/**
 * Pictures for the upload's tests, made here with sharp: a camera's JPEG (turned on its side by its
 * EXIF orientation, with the camera's EXIF and an ICC profile), a PNG, an AVIF, a GIF, an SVG, and a
 * PNG whose header says 20,000 × 20,000 pixels in a hundred bytes (a decompression bomb, never decoded).
 */

export const RED = { r: 220, g: 20, b: 20 };
export const BLUE = { r: 20, g: 20, b: 220 };

/** 300×200 as stored, red on the left and blue on the right. */
const halves = (width = 300, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: RED } }).composite([
    {
      input: { create: { width: width / 2, height, channels: 3, background: BLUE } },
      left: width / 2,
      top: 0,
    },
  ]);

/**
 * A phone's photo held upright: stored 300×200 (red left, blue right) with EXIF orientation 6, so
 * shown 200×300 with red on top and blue below; with the camera's make, the author, and a P3 profile.
 */
export async function cameraJpeg(): Promise<Buffer> {
  const stored = await halves().jpeg().toBuffer();
  return sharp(stored)
    .withIccProfile('p3')
    .withExif({ IFD0: { Make: 'Téléphone', Artist: 'Camille', Copyright: 'Collectif' } })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

export const png = (width = 300, height = 200): Promise<Buffer> => halves(width, height).png().toBuffer();
export const avif = (): Promise<Buffer> => halves().avif().toBuffer();
export const gif = (): Promise<Buffer> => halves().gif().toBuffer();
export const svg = (): Buffer =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200"/></svg>',
  );

/** A PNG of one pixel whose header says 20,000 × 20,000 (400 megapixels), its checksum right. */
export async function pngBomb(): Promise<Buffer> {
  const bytes = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: RED } })
      .png()
      .toBuffer(),
  );
  // The IHDR chunk: its data from byte 16 (width, height), its CRC over its type and data.
  bytes.writeUInt32BE(20_000, 16);
  bytes.writeUInt32BE(20_000, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

/** The colour at (x, y) of a picture. */
export async function colourAt(picture: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at] ?? 0, g: data[at + 1] ?? 0, b: data[at + 2] ?? 0 };
}
