import { siteConfig } from '@collectif/shared';
import type { RemoteModuleRef } from '@collectif/shared';

export interface InternalLink {
  to: string;
  label: string;
  /** The page behind the link, warmed when the visitor points at it. */
  page: RemoteModuleRef;
}

export const internalLinks: readonly InternalLink[] = [
  { to: '/residences', label: 'Résidences', page: { remote: 'radio', module: 'ResidencesPage' } },
  { to: '/label', label: 'Label', page: { remote: 'label', module: 'LabelPage' } },
  { to: '/a-propos', label: 'À propos', page: { remote: 'about', module: 'AboutPage' } },
];

export const externalLinks = [
  { href: siteConfig.links.shop, label: 'Boutique' },
  { href: siteConfig.links.photos, label: 'Photos' },
  { href: siteConfig.links.soundcloud, label: 'Écouter' },
  { href: siteConfig.links.bandcamp, label: 'Acheter' },
] as const;

/** Back button target (SPEC section 2): a residence detail goes to the list, anything else home. */
export function backTarget(pathname: string): string {
  return pathname.startsWith('/residences/') ? '/residences' : '/';
}
