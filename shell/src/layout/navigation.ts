import { menuOf, siteConfig, type MenuLink, type PageRef } from '@collectif/shared';

/** The site's own pages in the menu: from the table of pages the remotes declare (docs/parts.md, « Pages »). */
export const internalLinks = (pages: readonly PageRef[]): MenuLink[] => menuOf(pages);

export const externalLinks = [
  { href: siteConfig.links.shop, label: 'Boutique' },
  { href: siteConfig.links.photos, label: 'Photos' },
  { href: siteConfig.links.soundcloud, label: 'Écouter' },
  { href: siteConfig.links.bandcamp, label: 'Acheter' },
] as const;

export { backTarget } from '@collectif/shared';
