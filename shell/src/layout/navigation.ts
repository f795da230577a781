import { MENU, siteConfig } from '@collectif/shared';

/** The site's own pages in the menu: from the table of pages (shared/src/pages.ts). */
export const internalLinks = MENU;

export const externalLinks = [
  { href: siteConfig.links.shop, label: 'Boutique' },
  { href: siteConfig.links.photos, label: 'Photos' },
  { href: siteConfig.links.soundcloud, label: 'Écouter' },
  { href: siteConfig.links.bandcamp, label: 'Acheter' },
] as const;

export { backTarget } from '@collectif/shared';
