export * from './paths';
export { usePageHref } from './usePageHref';
export { PageLink } from './PageLink';
// An episode's own address: its slug and the instant it starts at (`?t=`).
export { isSlug, parseStartTime, startTimeParam } from '../episodeAddress';
