import site from '../../config/site.json';
import { radioSettings } from './radio';

export {
  NO_TIMESHIFT,
  RADIO_SETTINGS_FIELDS,
  RADIO_SETTINGS_ID,
  RADIO_SETTINGS_PATH,
  RENDITIONS_MAX,
  SUPPORT_PAGE,
  TIMESHIFT_HOURS_MAX,
  TIMESHIFT_PLAYLIST,
  loadRadioSettings,
  normalRendition,
  parseRadioSettings,
  parseRenditions,
  parseSupportLinks,
  parseTimeshift,
  radioSettings,
  radioSettingsReady,
  resetRadioSettings,
  type RadioSettings,
  type Rendition,
  type SupportLinks,
  type Timeshift,
} from './radio';

/** The site configuration (shared/config/site.json), checked against its schema at build and test time. */
export type SiteConfig = typeof site;

export const siteConfig: SiteConfig = site;

/** URL of the label's sales page for a release's relative href. */
export function releaseUrl(href: string, config: SiteConfig = siteConfig): string {
  return new URL(href, `${config.label.salesBaseUrl.replace(/\/$/, '')}/`).toString();
}

/** The channel's page on Twitch; the channel is a run-time setting (radioSettings). */
export function twitchChannelUrl(channel: string = radioSettings().twitchChannel): string {
  return `https://www.twitch.tv/${channel}`;
}

export function mailto(address: string): string {
  return `mailto:${address}`;
}
