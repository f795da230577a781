// @ts-check
// Smaller copies of the site's own pictures, at the widths phones show them (docs/head.md, « Sizes
// of a picture »). Each copy is named after its original with its width, made by the build from the
// original (scripts/generate-assets.mjs), and offered to the browser by `srcset`. Imported by its own
// path (`@collectif/shared/pictures`), so a part that uses it works with any deployed shell.
import { RESIDENCE_PICTURES, residencePictureUrls } from './residenceImages.mjs';

export { RESIDENCE_PICTURES, residenceImages, residencePictureUrls } from './residenceImages.mjs';

/** How wide a picture of the About page is shown (mf-about: the page's width, half of it from 800 px). */
export const ABOUT_IMAGE_SIZES = '(min-width: 75rem) 37.5rem, (min-width: 800px) 50vw, 100vw';

/** How wide a card of a `.grid` is shown (shared/src/styles/base.css: 2, 3 then 4 columns). */
export const GRID_IMAGE_SIZES = '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw';

/** How wide a picture across the page's column is shown (`--content-width`, 75rem). */
export const PAGE_IMAGE_SIZES = '(min-width: 75rem) 75rem, 100vw';

const FOLDER = '/assets/images';

/**
 * The pictures that come with a smaller copy, by where they are in the images folder: the
 * original's width and the copy's size. A copy is named after its original with its width
 * (`releases/brique-rose-400.webp`); a name that already ends with a width is a copy.
 */
const WITH_COPY = [
  // A release's cover, 600 px square; its copy: half a phone's width at 1.75 dppx is 361 px.
  { original: /^(releases\/[^/?#]+)\.webp$/, width: 600, copy: { width: 400, height: 400 } },
  // The cover of an episode that has none (`DEFAULT_COVER`), like a release's.
  { original: /^(default-cover)\.webp$/, width: 600, copy: { width: 400, height: 400 } },
  // A picture of the About page, 1200×800; its copy: a phone's width at 1.75 dppx is 665 px.
  { original: /^(a-propos\/[^/?#]+)\.webp$/, width: 1200, copy: { width: 800, height: 533 } },
  // An event's poster, 1200×800 (3:2); its copy for its card, across a phone (665 px at 1.75 dppx)
  // or a third of a wide page (24rem, 768 px at 2 dppx): 600 px would be too narrow for either.
  { original: /^(evenements\/[^/?#]+)\.webp$/, width: 1200, copy: { width: 800, height: 533 } },
  // A residence's header, 1600×600; its copy for phones.
  {
    original: new RegExp(`^(residences/[^/?#]+${RESIDENCE_PICTURES.header.suffix})\\.webp$`),
    width: RESIDENCE_PICTURES.header.width,
    copy: { width: 800, height: 300 },
  },
];
const COPY_NAME = /-\d+$/;
const RESIDENCE_CARD = new RegExp(`^/assets/images/residences/([^/?#]+)${RESIDENCE_PICTURES.card.suffix}\\.webp$`);

/**
 * A picture's copy and the original's width, for a path relative to the images folder.
 * @param {string} relPath
 */
function copyOf(relPath) {
  for (const { original, width, copy } of WITH_COPY) {
    const base = original.exec(relPath)?.[1];
    if (base !== undefined && !COPY_NAME.test(base))
      return { width, copy: { path: `${base}-${String(copy.width)}.webp`, ...copy } };
  }
  return undefined;
}

/**
 * An uploaded picture (docs/content.md, « Pictures »): `/media/<name>-<width>.webp` at the largest
 * width of its use, beside its copy at the width this table gives (a team photo has none).
 */
const UPLOADED = /^\/media\/([0-9a-f]{32})-(\d+)\.webp$/;
/** @type {Readonly<Record<string, number>>} */
const UPLOADED_COPY = { 1600: 800, 800: 400, 600: 400 };

/**
 * An uploaded picture's `srcset`, when it comes in two widths.
 * @param {string} src
 */
function uploadedCopy(src) {
  const found = UPLOADED.exec(src);
  const copy = found === null ? undefined : UPLOADED_COPY[found[2] ?? ''];
  return found === null || copy === undefined
    ? undefined
    : `/media/${found[1] ?? ''}-${String(copy)}.webp ${String(copy)}w, ${src} ${found[2] ?? ''}w`;
}

/**
 * The `srcset` of one of the site's pictures that comes in several widths; undefined for any other
 * picture (one hosted elsewhere, an upstream's cover, a copy).
 * @param {string} src
 * @returns {string | undefined}
 */
export function pictureSrcSet(src) {
  const uploaded = uploadedCopy(src);
  if (uploaded !== undefined) return uploaded;
  const residence = RESIDENCE_CARD.exec(src)?.[1];
  if (residence !== undefined) return residencePictureUrls(residence).cardSrcSet;
  const found = src.startsWith(`${FOLDER}/`) ? copyOf(src.slice(FOLDER.length + 1)) : undefined;
  return found === undefined
    ? undefined
    : `${FOLDER}/${found.copy.path} ${String(found.copy.width)}w, ${src} ${String(found.width)}w`;
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
 * A residence's pictures: the ones an editor uploaded for it (`portrait`, 800 px square, and
 * `header`, 1600×600; docs/content.md, « Pictures »), else the ones named after its id.
 * @param {{ id: string; portrait?: string | undefined; header?: string | undefined }} residence
 */
export function residencePictures(residence) {
  const named = residencePictureUrls(encodeURIComponent(residence.id));
  const { portrait, header } = residence;
  const card = portrait === undefined ? named.card : portrait.replace(/-800\.webp$/, '-400.webp');
  const headerSrc = header ?? named.header;
  return {
    card,
    cardSrcSet: portrait === undefined ? named.cardSrcSet : `${card} 400w, ${portrait} 800w`,
    /** The square at 800 px, for a feed's artwork. */
    cardLarge: portrait ?? named.card.replace(/-400\.webp$/, '-800.webp'),
    header: headerSrc,
    headerSrcSet: pictureSrcSet(headerSrc),
  };
}

/**
 * A residence header's `srcset`, by the residence's id as it is.
 * @param {string} id
 */
export const residenceHeaderSrcSet = (id) => pictureSrcSet(residencePictureUrls(encodeURIComponent(id)).header);

/**
 * The copies the build makes of a picture (WITH_COPY), relative to the images folder.
 * @param {string} relPath the original, e.g. `releases/brique-rose.webp`
 * @returns {{ path: string; width: number; height: number }[]}
 */
export function pictureCopies(relPath) {
  const found = copyOf(relPath);
  return found === undefined ? [] : [found.copy];
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
