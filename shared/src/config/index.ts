import site from '../../config/site.json';

/** The site configuration (shared/config/site.json), checked against its schema at build and test time. */
export type SiteConfig = typeof site;

export const siteConfig: SiteConfig = site;

/** URL of the label's sales page for a release's relative href. */
export function releaseUrl(href: string, config: SiteConfig = siteConfig): string {
  return new URL(href, `${config.label.salesBaseUrl.replace(/\/$/, '')}/`).toString();
}

export function twitchChannelUrl(config: SiteConfig = siteConfig): string {
  return `https://www.twitch.tv/${config.radio.twitchChannel}`;
}

export function mailto(address: string): string {
  return `mailto:${address}`;
}
