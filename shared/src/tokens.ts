/** Breakpoints in px (docs/interface.md and docs/site.md); the CSS custom properties mirror them in styles/tokens.css. */
export const breakpoints = { layout: 600, footer: 700, grid: 800, desktop: 1200 } as const;

export const DEFAULT_COVER = '/assets/images/default-cover.webp';
