import type { FastifyInstance } from 'fastify';
import { SUPPORT_PAGE, siteConfig, type SupportLinks } from '@collectif/shared/config';

/** The kind `support` as the content has it (checked by its schema at each save). */
export interface SupportContent {
  helloasso: boolean;
  goal?: number;
}

/** Whether HelloAsso takes payments on the site, and the year's membership goal (docs/support.md). */
export function supportContent(app: FastifyInstance): SupportContent {
  const data = app.content.current('support').data as Partial<SupportContent> | null;
  const { helloasso, demo } = app.apiConfig.support;
  return {
    // Off when an admin turned it off, and where the site is deployed without HelloAsso's settings
    // (no demo there: docs/support.md, « The demo »).
    helloasso: data?.helloasso !== false && (helloasso !== null || demo),
    ...(typeof data?.goal === 'number' ? { goal: data.goal } : {}),
  };
}

/** Where « Nous soutenir » leads now: the page while HelloAsso is on, else the external one. */
export function supportLinks(app: FastifyInstance): SupportLinks {
  return { page: supportContent(app).helloasso ? SUPPORT_PAGE : '', external: siteConfig.links.donation };
}

/**
 * The radio's settings as each page writes them (site/page-routes.ts), with where « Nous soutenir »
 * leads now (docs/support.md, « Links »): read at each page, as an admin may turn HelloAsso off.
 */
export function radioWithSupport<Radio extends object>(
  app: FastifyInstance,
  radio: Radio,
): () => Radio & { support: SupportLinks } {
  return () => ({ ...radio, support: supportLinks(app) });
}
