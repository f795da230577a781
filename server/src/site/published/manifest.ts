import { siteConfig } from '@collectif/shared';
import { PAGES, type HrefOf } from '@collectif/shared/addresses';
import { colors } from '@collectif/shared/tokens';
import { INSTALL_SCREENSHOTS } from './screenshots.mjs';

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

/**
 * Where the live stream is: home's live block (mf-radio's `LiveBlock`, its heading's id), beside the
 * player's « Stream » button; there is no page of its own.
 */
export const LIVE_ANCHOR = 'live-heading';

/**
 * The web app manifest: the site can be added to a phone's home screen, with its icons, its install
 * screenshots and a shortcut to the live stream, whose address comes from the table of pages (`href`).
 */
export function webManifest(href: HrefOf): object {
  const icon = (size: number, purpose: string) => ({
    src: `/assets/images/icon-${String(size)}.png`,
    sizes: `${String(size)}x${String(size)}`,
    type: 'image/png',
    purpose,
  });
  const home = href(PAGES.home);
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
    screenshots: INSTALL_SCREENSHOTS.map(({ file, width, height, form_factor, label }) => ({
      src: `/assets/images/${file}`,
      sizes: `${String(width)}x${String(height)}`,
      type: 'image/webp',
      form_factor,
      label,
    })),
    // None while home is not in the table (its remote down): no shortcut to a page that is not there.
    shortcuts:
      home === null
        ? []
        : [
            {
              name: 'Écouter le direct',
              short_name: 'Direct',
              description: 'Le direct du studio et son lecteur, sur la page d’accueil',
              url: `${home}#${LIVE_ANCHOR}`,
              icons: [{ src: '/assets/images/icon-192.png', sizes: '192x192', type: 'image/png' }],
            },
          ],
  };
}
