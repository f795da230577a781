/**
 * What a page rendered on the server, its loader and the shell agree on (docs/rendering.md,
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

/** A file the loader announces once the page is painted. */
export interface BootPreload {
  href: string;
  as: 'script' | 'fetch';
  crossorigin?: 'anonymous';
}
