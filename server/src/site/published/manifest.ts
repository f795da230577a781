import { siteConfig } from '@collectif/shared';
import { colors } from '@collectif/shared/tokens';

/** The web app manifest, `/manifest.webmanifest` (docs/published.md, « Installable »). */

/** The page's colour (the site's tokens: --color-bg), behind the installed site and its bars. */
export const THEME_COLORS = { background: colors.bg, theme: colors.bg } as const;

/** What a home screen shows under an icon without cutting it. */
const SHORT_NAME_LENGTH = 12;

/**
 * The name under the icon (docs/published.md, « Installable »): the whole name when it fits, else its
 * last whole words that fit (« Collectif Garonne » gives « Garonne »), never a word cut in two
 * unless one word alone is too long.
 */
export function shortName(name: string): string {
  const words = name.trim().split(/\s+/);
  let short = '';
  for (const word of words.reverse()) {
    const longer = short === '' ? word : `${word} ${short}`;
    if (longer.length > SHORT_NAME_LENGTH) break;
    short = longer;
  }
  return short === '' ? name.trim().slice(0, SHORT_NAME_LENGTH) : short;
}

/** The web app manifest: the site can be added to a phone's home screen (no service worker). */
export function webManifest(): object {
  const icon = (size: number, purpose: string) => ({
    src: `/assets/images/icon-${String(size)}.png`,
    sizes: `${String(size)}x${String(size)}`,
    type: 'image/png',
    purpose,
  });
  return {
    name: siteConfig.name,
    short_name: shortName(siteConfig.name),
    description: siteConfig.baseline,
    lang: 'fr',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: THEME_COLORS.background,
    theme_color: THEME_COLORS.theme,
    icons: [icon(192, 'any'), icon(512, 'any'), icon(192, 'maskable'), icon(512, 'maskable')],
  };
}
