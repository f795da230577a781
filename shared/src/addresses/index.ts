export * from './paths';
export { usePageHref } from './usePageHref';
export { PageLink } from './PageLink';
// An episode's own address: its slug and the instant it starts at (`?t=`).
export { isSlug, parseStartTime, startTimeParam } from '../episodeAddress';
// A played artist's address (/artistes/:slug): what can be one before it is looked up.
export { isPlayedArtistSlug } from '../episodeAddress';
// « Nous soutenir »: the site's page or the external one, as the run-time settings say (docs/support.md).
export { SupportLink } from './SupportLink';
export { SUPPORT_ADDRESS } from '../supportAddress';
