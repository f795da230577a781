/*
 * Where the public site is, for the editor (docs/content.md, « The editor app »). The editor app, on an
 * origin of its own (EDITOR_ORIGIN), is told the public site's origin by its configuration
 * (`publicOrigin`, `@collectif/shared/editor-config`) before it renders: the preview frames the
 * public pages there, and the links and pictures of the site's content point there. The editor
 * served as a part of the public site (its federated pages) is told nothing: the public site is
 * the page's own origin, and its addresses stay paths, as they always were.
 */

let configured: string | null = null;

/** Set once by the editor app, from its configuration, before it renders (null: the page's own origin). */
export function setPublicOrigin(origin: string | null): void {
  configured = origin;
}

/** The public site's origin: the configured one, or the page's own. */
export const publicOrigin = (): string => configured ?? window.location.origin;

/** Whether the public site is on another origin than the editor's (the editor app on its own). */
export const isPublicSiteElsewhere = (): boolean => configured !== null && configured !== window.location.origin;

/**
 * A path of the public site (`/residences/axonberg`, `/media/x-800.webp`) as the editor must write
 * it: absolute on the public origin when the editor has one of its own, else the path as it is.
 */
export const onPublicSite = (path: string): string => (isPublicSiteElsewhere() ? `${publicOrigin()}${path}` : path);
