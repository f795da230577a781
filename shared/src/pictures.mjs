// @ts-check
// Smaller copies of the site's own pictures, at the widths phones show them (docs/head.md, « Sizes
// of a picture »). Each copy is named after its original with its width, made by the build from the
// original (scripts/generate-assets.mjs), and offered to the browser by `srcset`. Imported by its own
// path (`@collectif/shared/pictures`), so a part that uses it works with any deployed shell.
import { RESIDENCE_PICTURES, residencePictureUrls } from './residenceImages.mjs';

/** A release's cover: a 600 px square, and a 400 px copy (half a phone's width, 206 px at 1.75 dppx: 361 px). */
export const RELEASE_COVER = /** @type {const} */ ({ width: 600, copyWidth: 400 });

/** A residence's header (1600×600) and its copy for phones. */
export const RESIDENCE_HEADER_COPY = /** @type {const} */ ({ suffix: '-header-800', width: 800, height: 300 });

/** A picture of the About page: 1200×800, and an 800 px copy (a phone's width at 1.75 dppx: 665 px). */
export const ABOUT_PICTURE = /** @type {const} */ ({ width: 1200, copyWidth: 800, copyHeight: 533 });

/** How wide a picture of the About page is shown (mf-about: the page's width, half of it from 800 px). */
export const ABOUT_IMAGE_SIZES = '(min-width: 75rem) 37.5rem, (min-width: 800px) 50vw, 100vw';

/** How wide a card of a `.grid` is shown (shared/src/styles/base.css: 2, 3 then 4 columns). */
export const GRID_IMAGE_SIZES = '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw';

/** How wide a picture across the page's column is shown (`--content-width`, 75rem). */
export const PAGE_IMAGE_SIZES = '(min-width: 75rem) 75rem, 100vw';

const FOLDER = '/assets/images';
const RELEASE = /^\/assets\/images\/releases\/([^/?#]+)\.webp$/;
const ABOUT = /^\/assets\/images\/a-propos\/([^/?#]+)\.webp$/;
/** The cover of an episode that has none (`DEFAULT_COVER`): 600 px, and a copy like a release's. */
const DEFAULT_COVER_FILE = 'default-cover';
const RESIDENCE_CARD = new RegExp(`^/assets/images/residences/([^/?#]+)${RESIDENCE_PICTURES.card.suffix}\\.webp$`);
/** A name that already carries a width (`-400`) is a copy, not an original. */
const COPY_NAME = /-\d+$/;

/**
 * The `srcset` of one of the site's pictures that comes in several widths; undefined for any other
 * picture (one hosted elsewhere, an upstream's cover, a copy).
 * @param {string} src
 * @returns {string | undefined}
 */
export function pictureSrcSet(src) {
  const { width, copyWidth } = RELEASE_COVER;
  const release = RELEASE.exec(src)?.[1];
  if (release !== undefined && !COPY_NAME.test(release))
    return `${FOLDER}/releases/${release}-${String(copyWidth)}.webp ${String(copyWidth)}w, ${src} ${String(width)}w`;
  if (src === `${FOLDER}/${DEFAULT_COVER_FILE}.webp`)
    return `${FOLDER}/${DEFAULT_COVER_FILE}-${String(copyWidth)}.webp ${String(copyWidth)}w, ${src} ${String(width)}w`;
  const about = ABOUT.exec(src)?.[1];
  if (about !== undefined && !COPY_NAME.test(about))
    return `${FOLDER}/a-propos/${about}-${String(ABOUT_PICTURE.copyWidth)}.webp ${String(ABOUT_PICTURE.copyWidth)}w, ${src} ${String(ABOUT_PICTURE.width)}w`;
  const residence = RESIDENCE_CARD.exec(src)?.[1];
  if (residence !== undefined) return residencePictureUrls(residence).cardSrcSet;
  return undefined;
}

/**
 * A square picture on a grid's card, as `Card` takes it: its address, the widths it comes in and how
 * wide it is shown, and the size its original is said to have.
 * @param {string} src
 * @param {number} size
 */
export function gridSquare(src, size) {
  return { src, srcSet: pictureSrcSet(src), sizes: GRID_IMAGE_SIZES, width: size, height: size };
}

/**
 * A residence header's `srcset`, by the residence's id as it is.
 * @param {string} id
 */
export function residenceHeaderSrcSet(id) {
  const urlId = encodeURIComponent(id);
  const { header } = RESIDENCE_PICTURES;
  const copy = RESIDENCE_HEADER_COPY;
  return `${FOLDER}/residences/${urlId}${copy.suffix}.webp ${String(copy.width)}w, ${residencePictureUrls(urlId).header} ${String(header.width)}w`;
}

/**
 * The copies the build makes of a picture, relative to the images folder: for a release cover named
 * in the content and for the default cover, a 400 px copy; for a picture of the About page, an
 * 800 px copy; for a residence's header, its copy for phones.
 * @param {string} relPath the original, e.g. `releases/brique-rose.webp`
 * @returns {{ path: string; width: number; height: number }[]}
 */
export function pictureCopies(relPath) {
  const size = RELEASE_COVER.copyWidth;
  const release = /^releases\/([^/]+)\.webp$/.exec(relPath)?.[1];
  if (release !== undefined && !COPY_NAME.test(release))
    return [{ path: `releases/${release}-${String(size)}.webp`, width: size, height: size }];
  if (relPath === `${DEFAULT_COVER_FILE}.webp`)
    return [{ path: `${DEFAULT_COVER_FILE}-${String(size)}.webp`, width: size, height: size }];
  const about = /^a-propos\/([^/]+)\.webp$/.exec(relPath)?.[1];
  if (about !== undefined && !COPY_NAME.test(about)) {
    const { copyWidth, copyHeight } = ABOUT_PICTURE;
    return [{ path: `a-propos/${about}-${String(copyWidth)}.webp`, width: copyWidth, height: copyHeight }];
  }
  const header = new RegExp(`^residences/(.+)${RESIDENCE_PICTURES.header.suffix}\\.webp$`).exec(relPath)?.[1];
  if (header !== undefined) {
    const { suffix, width, height } = RESIDENCE_HEADER_COPY;
    return [{ path: `residences/${header}${suffix}.webp`, width, height }];
  }
  return [];
}

/**
 * A preload's attributes for a picture shown with `pictureSrcSet`: the same `srcset` and `sizes` as
 * its `<img>`, so that the browser fetches once the width it will show; nothing for a picture that
 * comes in one width.
 * @param {string} src
 * @param {string} sizes
 * @returns {{ imagesrcset?: string; imagesizes?: string }}
 */
export function preloadSrcSet(src, sizes) {
  const srcSet = pictureSrcSet(src);
  return srcSet === undefined ? {} : { imagesrcset: srcSet, imagesizes: sizes };
}
