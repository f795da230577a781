export * from './paths';
export { usePageHref } from './usePageHref';
export { PageLink } from './PageLink';
