import type { FastifyRequest } from 'fastify';
import { ApiHttpError } from '../../http/errors';

/**
 * Posts taken only from the site's own pages (docs/api.md, « Forms only from the site »): the
 * proposals' form, with or without JavaScript. A browser says where a request comes from twice: its
 * `Sec-Fetch-Site` (`same-origin`, `same-site`, `cross-site`, `none`) and its `Origin`. A request is
 * refused when it says `cross-site`, or names an origin that is not the site's: the address the
 * browser reached (its `Host`), or SITE_ORIGIN. A client that sends neither (curl, a very old
 * browser) is no page of another site acting through a visitor, and is bounded otherwise (the proof
 * of work or the form's single-use token, the bounds per network and day).
 */
export function siteOnlyCheck(request: FastifyRequest, siteOrigin: string | null): void {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') throw refused();
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (siteOrigin !== null && origin === siteOrigin) return;
  let host: string | null = null;
  try {
    const url = new URL(origin);
    host = url.protocol === 'http:' || url.protocol === 'https:' ? url.host : null;
  } catch {
    // `null` (a sandboxed frame, a redirect across sites) or anything else: not the site's.
  }
  if (host === null || host !== request.headers.host) throw refused();
}

const refused = () =>
  new ApiHttpError(
    403,
    'cross_site',
    'Envoi refusé : ce formulaire ne peut être envoyé que depuis les pages du site. Ouvrez la page du site, puis renvoyez-le.',
  );
