/**
 * What a page rendered on the server, its loader and the shell agree on (docs/first-screen.md,
 * « Scripts after the paint » and « Nothing lost before the scripts arrive »). No import: the loader
 * (shell/src/boot/loader.ts) is built from it alone and written into every rendered page.
 */

/** `<script type="application/json" id="boot">`: what the loader fetches (`{ preloads: BootPreload[] }`). */
export const BOOT_ID = 'boot';

/** A tab in the background paints no frame: the scripts start anyway after this. */
export const BOOT_FALLBACK_MS = 3000;

/** A tap kept before its area was interactive is forgotten after this. */
export const EARLY_TAP_MAX_MS = 20_000;

/**
 * The attribute on the element that holds an area the shell hydrates on its own (the page, the
 * player), naming it; a control in none belongs to the shell itself (`SHELL_AREA`).
 */
export const AREA_ATTRIBUTE = 'data-zone';
export const SHELL_AREA = 'shell';

/**
 * Dispatched on `document` by the shell when an area has become interactive in the browser (its
 * handlers attached: hydrated, or rendered there), with the area's name as `detail`.
 */
export const AREA_READY_EVENT = 'collectif:zone-interactive';

/**
 * The site's table of pages as a file (docs/rendering.md, « The document »), revalidated at each
 * visit: a page whose shell reads it there (its `document.json` says `"pageTable": "file"`) does not
 * carry it; its loader asks for it with the scripts, and the shell reads it before it hydrates.
 */
export const PAGE_TABLE_PATH = '/pages.json';

/**
 * The web app manifest (docs/published.md, « Installable »). Chromium asks for a page's manifest when
 * the page has loaded, and the page's own picture has then come but may not be shown yet: a page whose
 * shell's loader names it (`"manifest": "loader"` in its `document.json`) does not carry its link,
 * and the loader adds it once the first screen is shown (docs/rendering.md, « The first screen's
 * budget »).
 */
export const MANIFEST_PATH = '/manifest.webmanifest';

/**
 * On `<html>` while the loader holds the page's lazy pictures, until its first screen is shown
 * (styles/base.css moves them out of view, where the browser does not ask for them).
 */
export const PICTURES_HELD_CLASS = 'pictures-held';

/** A file the loader announces once the page is painted. */
export interface BootPreload {
  href: string;
  as: 'script' | 'fetch';
  crossorigin?: 'anonymous';
}

/**
 * The display face (docs/interface.md, « Typography »). The page's styles always name Archivo Black
 * first in `--font-display` (styles/tokens.css), but declare no face for it: headings are drawn in
 * the fallback, and the browser asks for nothing. The face is made here (the FontFace API, from the
 * file's address the styles give in `--display-face-src`) once the page's first screen is painted,
 * and put in the document's fonts once it has come: the page is then laid out again once (Chromium
 * lays out the whole page when a face joins them). Named by a class instead, the change of a custom property on `<html>` had every
 * element's style computed again and the page laid out twice after its paint (once for the name, once
 * for the file), the longest task after the paint on every page. `DISPLAY_FACE_CLASS` on `<html>` says
 * the face has been asked for. A browser that has fetched it once (`DISPLAY_FACE_SEEN` in its
 * storage) has it in its cache: the face is in the document's fonts at once, before the first paint.
 */
export const DISPLAY_FACE_CLASS = 'display-face';
export const DISPLAY_FACE_SEEN = 'collectif:police';
/** The family the page's styles name (styles/tokens.css). */
export const DISPLAY_FAMILY = 'Archivo Black';
/** The custom property holding the face's file, as a CSS `src` (styles/fonts.css). */
export const DISPLAY_FACE_SRC = '--display-face-src';
/**
 * What the face's file holds: every weight a heading asks for (the browser never fakes a bold). A
 * character it lacks is drawn in the fallback, as with any face.
 */
const DISPLAY_FACE_DESCRIPTORS: FontFaceDescriptors = { weight: '400 900', display: 'swap' };

/** Whether this browser has fetched the display face before (false where storage is refused). */
export function displayFaceSeen(): boolean {
  try {
    return localStorage.getItem(DISPLAY_FACE_SEEN) === '1';
  } catch {
    return false;
  }
}

/**
 * Asks for the display face: on a browser that has it in its cache, in the document's fonts at once
 * (the first layout waits for it, as for a face the styles declare, `swap`); otherwise once it has
 * come, so that the page is laid out again once, with it. Once it has come, the browser is known to
 * have it (storage refused: it is asked for after the paint again next time). Does nothing the
 * second time, nor where the browser has no FontFace or the page's styles give no file.
 */
export function showDisplayFace(): void {
  const { classList } = document.documentElement;
  if (classList.contains(DISPLAY_FACE_CLASS)) return;
  classList.add(DISPLAY_FACE_CLASS);
  const src = getComputedStyle(document.documentElement).getPropertyValue(DISPLAY_FACE_SRC).trim();
  const fonts = document.fonts as FontFaceSet | undefined;
  if (src === '' || fonts === undefined || typeof FontFace !== 'function') return;
  const face = new FontFace(DISPLAY_FAMILY, src, DISPLAY_FACE_DESCRIPTORS);
  const cached = displayFaceSeen();
  if (cached) fonts.add(face);
  face
    .load()
    .then(() => {
      if (!cached) fonts.add(face);
      localStorage.setItem(DISPLAY_FACE_SEEN, '1');
    })
    .catch(() => undefined);
}
