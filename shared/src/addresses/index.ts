export * from './paths';
export { usePageHref } from './usePageHref';
export { PageLink } from './PageLink';
// An episode's own address: its slug and the instant it starts at (`?t=`).
export { isSlug, parseStartTime, startTimeParam } from '../episodeAddress';
// « Nous soutenir »: the site's page or the external one, as the run-time settings say (docs/support.md).
export { SupportLink } from './SupportLink';
