/** Breakpoints in px (docs/interface.md and docs/site.md); the CSS custom properties mirror them in styles/tokens.css. */
export const breakpoints = { layout: 600, footer: 700, grid: 800, desktop: 1200 } as const;

export const DEFAULT_COVER = '/assets/images/default-cover.webp';

/**
 * Colours other than CSS needs them (the web app manifest, the theme-color meta); they mirror
 * --color-bg and --color-accent in styles/tokens.css, which a test checks.
 */
export const colors = { bg: '#0d0d0f', accent: '#ffcf3f' } as const;
