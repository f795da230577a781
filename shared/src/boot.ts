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
 * The display face (docs/interface.md, « Typography »): until the page's first screen is painted,
 * headings are drawn in the fallback; this class on `<html>` then names Archivo Black in
 * `--font-display` (styles/tokens.css), and only then does the browser fetch it. A browser that has
 * fetched it once (`DISPLAY_FACE_SEEN` in its storage) has it in its cache, and gets it at once.
 */
export const DISPLAY_FACE_CLASS = 'display-face';
export const DISPLAY_FACE_SEEN = 'collectif:police';
/** The family as styles/fonts.css declares it. */
export const DISPLAY_FAMILY = 'Archivo Black';

/** Whether this browser has fetched the display face before (false where storage is refused). */
export function displayFaceSeen(): boolean {
  try {
    return localStorage.getItem(DISPLAY_FACE_SEEN) === '1';
  } catch {
    return false;
  }
}

/**
 * Names the display face in the page's styles and asks for it at once (so that `document.fonts.ready`
 * waits for it from now on); once it has come, the browser is known to have it (storage refused: it
 * is asked for after the paint again next time). Does nothing the second time.
 */
export function showDisplayFace(): void {
  const { classList } = document.documentElement;
  if (classList.contains(DISPLAY_FACE_CLASS)) return;
  classList.add(DISPLAY_FACE_CLASS);
  (document.fonts as FontFaceSet | undefined)
    ?.load(`1em "${DISPLAY_FAMILY}"`)
    .then((faces) => {
      if (faces.length > 0) localStorage.setItem(DISPLAY_FACE_SEEN, '1');
    })
    .catch(() => undefined);
}
