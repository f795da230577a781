import { constants } from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { fastifyTrustProxy, type SiteServerConfig } from '../settings/config';
import type { ApiConfig } from '../api/env';
import { representationsPlugin } from '../api/plugins/representations';
import { rateLimitOptions } from '../api/plugins/security';
import { sourcesPlugin } from '../api/plugins/sources';
import { eventsPlugin } from '../api/plugins/events';
import apiRoutes from '../api/routes/index';
import { editorOrigin } from '../site/editor-origin';
import { publishedPlugin } from '../site/published';
import { oembedPlugin } from '../site/oembed';
import { siteFiles } from '../site/files';
import { siteMedia } from '../site/media';
import { timeshiftPlugin } from '../timeshift/plugin';
import { archivesPlugin } from '../archive/plugin';
import { siteHealth } from '../site/health';
import { sitePageRoutes, sitePagesOf, sitePagesPlugin } from '../site/page-routes';
import { embedFramePlugin } from '../site/embed-frame';
import { devRemotes } from '../site/dev';
import { readResidences } from '../content/residences';
import { contentSecurityPolicy } from '../site/render/csp';
import { invalidAddressPage } from '../site/render/document';
import { RESPONSE_ENCODINGS } from '../site/render/responder';
import { connectShared } from '../instances/shared-state';
import { reserveServerRoutes } from '@collectif/shared';
import { createDeploys, type Deploys } from '../deploy/deploys';
import { siteDeploys } from '../api/routes/parts';
import { figuresPlugin } from '../figures/plugin';
import { metricsPlugin } from '../metrics/plugin';
import { createMetrics } from '../metrics/metrics';
import { openApiPlugin } from '../api/plugins/openapi';
import { radioWithSupport } from '../support/links';
import { leaveDocumentHeadersToDocuments } from './document-headers';
import { pushPlugin, type PushPluginOptions } from '../push/plugin';
import { proposalsPlugin } from '../proposals/plugin';

export interface AppOptions {
  site: SiteServerConfig;
  api: ApiConfig;
  /** The request log: on standard output (`true`), or written to a stream of the caller's (tests read its lines). */
  logger?: boolean | { write: (line: string) => void };
  /** « Me prévenir »'s sender: in tests, the CA of a push service on the loopback (push/plugin.ts). */
  push?: PushPluginOptions;
}

/**
 * The query arguments whose values the log never shows: a refused form's draft, which holds what its
 * visitor typed, and a proposal's deletion token (docs/proposals.md, « Private pages »).
 */
const SECRET_ARGUMENTS = new Set(['brouillon', 'jeton']);

/**
 * The addresses whose end is a secret, which the log never shows: HelloAsso's notification key
 * (docs/support.md, « Notifications »), and the draft a page reads from /api (the same id as its `brouillon`).
 */
const SECRET_PATHS = /^(\/api\/(?:support\/notifications|proposals\/drafts)\/)[^?#]*/;

/** An argument's name as the pages read it (`URLSearchParams`): `+` a space, percent-escapes decoded. */
function argumentName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/** The address with the values of `SECRET_ARGUMENTS` replaced by `…`, whatever their place in the query. */
function withoutSecretArguments(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return SECRET_ARGUMENTS.has(argumentName(name)) ? `${name}=…` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/**
 * A request as the log shows it: Fastify's own fields, with the secrets of its address hidden
 * (`SECRET_PATHS`, `SECRET_ARGUMENTS`): a log is read by more people than the settings.
 */
export function requestForLog(request: Pick<FastifyRequest, 'method' | 'url' | 'host' | 'ip'>) {
  return {
    method: request.method,
    url: withoutSecretArguments(request.url.replace(SECRET_PATHS, '$1…')),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/**
 * Builds the whole server (docs/server.md, « Layout »): external plugins, then the app's plugins,
 * then the routes. Tests call it and use app.inject() or listen on a loopback port.
 */
export async function buildApp({
  site: settings,
  api,
  logger = false,
  push = {},
}: AppOptions): Promise<FastifyInstance> {
  let site = settings;
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: site.logLevel,
            serializers: { req: requestForLog },
            ...(logger === true ? {} : { stream: logger }),
          },
    // No proxy is trusted unless TRUST_PROXY says so: X-Forwarded-For is written by the client,
    // and the rate limits and stream caps count per client address (docs/server.md).
    trustProxy: fastifyTrustProxy(site.trustProxy),
    // Fastify answers 404 to a path parameter over 100 characters; /api/track promises 400 for
    // any malformed URN, so the route sees every length (the request line is capped by Node anyway).
    routerOptions: { maxParamLength: 16_384 },
    // A request that stalls is cut rather than held: the process never hangs on a client.
    requestTimeout: 30_000,
    // An address that cannot be decoded is refused before routing: a page gets a French page, the
    // API its JSON error, as for any other bad request (docs/rendering.md, « Bad input »).
    frameworkErrors: (error, request, frameworkReply) => {
      // Typed for the route it never reached; the reply itself is an ordinary one.
      const reply = frameworkReply as unknown as FastifyReply;
      const api = request.url.startsWith('/api/');
      if (error.code === 'FST_ERR_BAD_URL' && !api) {
        void reply
          .code(400)
          .header('Cache-Control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(invalidAddressPage());
        return;
      }
      void reply.code(400).send({ error: 'bad_request', message: 'Requête invalide' });
    },
  });
  /** The server's routes, as they are registered (reserved once complete, below). */
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route.url);
  });

  // External plugins.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy(site.remotes, api.radio, site.editorOrigin),
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Written out, not left to helmet's default: nginx sends the same on the files it serves itself
    // (deploy/security-headers.conf, compared by security-headers.test.ts).
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    // The CSP's `frame-ancestors` says who may frame a page, and every browser the site runs in
    // obeys it over X-Frame-Options: the header would repeat it (and the framed player would
    // have to take it off again).
    xFrameOptions: false,
    // Obsolete (docs/server.md, « Security headers »): the switch of an XSS filter no browser has
    // any more, Internet Explorer's download prompt, the cross-domain policy files of Flash, and a
    // DNS prefetch `off` that browsers already keep off on HTTPS pages. Origin-Agent-Cluster stays
    // (helmet's default): current, it keeps a page's origin from joining a sub-domain's through
    // `document.domain`, the framed player's included.
    xXssProtection: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xDnsPrefetchControl: false,
  });
  leaveDocumentHeadersToDocuments(app);
  // The editor on an origin of its own (EDITOR_ORIGIN): the host decides what a request may reach.
  if (site.editorOrigin !== null) {
    await app.register(editorOrigin, {
      siteOrigin: site.siteOrigin,
      editorOrigin: site.editorOrigin,
      adminDir: site.distDirs.admin,
      pages: async () => (await app.sitePages()).pages,
    });
  }
  await app.register(compress, {
    encodings: RESPONSE_ENCODINGS,
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // Several instances share their counters, upstream answers and now-playing channel in Redis
  // (REDIS_URL, docs/deploy.md); a limit is not enforced while Redis is away (fail open, logged).
  const shared =
    site.redisUrl === null
      ? null
      : await connectShared(
          site.redisUrl,
          {
            warn: (message) => {
              app.log.warn(message);
            },
          },
          { secret: api.siteSecret },
        );
  app.addHook('onClose', async () => {
    await shared?.close();
  });
  await app.register(
    rateLimit,
    shared === null
      ? rateLimitOptions
      : { ...rateLimitOptions, redis: shared.redis, skipOnError: true, nameSpace: 'collectif:limite:' },
  );

  // Teams' deploys (DEPLOY_TOKENS, docs/deploy.md): each part served from its live version under
  // DEPLOY_ROOT, the versions other instances made live followed first (REDIS_URL).
  let deploys: Deploys | null = null;
  // The admins' metrics of this app (docs/deploy.md, « Metrics »): made here, passed to what counts.
  const metrics = createMetrics();
  if (site.deploy !== null) {
    deploys = createDeploys({
      metrics: metrics.site,
      settings: site.deploy,
      builtDirs: site.distDirs,
      shared: shared?.deploys ?? null,
      log: {
        info: (message) => {
          app.log.info(message);
        },
        warn: (message) => {
          app.log.warn(message);
        },
      },
      tryPart: (part, dir, pages) => app.tryPart(part, dir, pages),
      sitePages: async () => (await app.sitePages()).pages,
    });
    await deploys.follow();
    site = { ...site, distDirs: { ...site.distDirs, ...deploys.liveDirs() } };
  }

  // The residences of the content file, read once for the API and the feeds: what was left out is said.
  for (const problem of readResidences(api.demo.residencesFile).problems) app.log.warn(problem);

  // The app's plugins: shared services, decorated on the instance.
  // Before every route: the API's description sees them all (docs/api.md, « The description »).
  await app.register(openApiPlugin);
  await app.register(sourcesPlugin, { config: api, shared, metrics });
  await app.register(eventsPlugin);
  // The audience figures (docs/figures.md) and the admins' metrics (docs/deploy.md, « Metrics »).
  await app.register(figuresPlugin);
  await app.register(metricsPlugin, { token: api.figures.metricsToken });
  // « Me prévenir »: the subscriptions, and the instance holding the lease sends (docs/push.md);
  // the notifications' addresses from the page table (registered below, read at each use).
  await app.register(pushPlugin, { pages: async () => (await app.sitePages()).pages, ...push });
  // « Proposer une émission » and « Envoyer une démo »: the store and the e-mails' queue (docs/proposals.md).
  await app.register(proposalsPlugin, {
    siteOrigin: site.siteOrigin,
    editorOrigin: site.editorOrigin,
    pages: async () => (await app.sitePages()).pages,
  });
  await app.register(representationsPlugin);
  await app.register(sitePagesPlugin, {
    read: sitePagesOf(site, (message) => {
      app.log.warn(message);
    }),
  });

  // Routes: /api (its own security and error rules inside), then the site's files and pages.
  await app.register(apiRoutes, { prefix: '/api', siteOrigin: site.siteOrigin, editorOrigin: site.editorOrigin });
  await app.register(publishedPlugin, { config: site });
  await app.register(oembedPlugin, { config: site });
  if (site.devRemotes.length > 0) await app.register(devRemotes, { remotes: site.devRemotes });
  await app.register(embedFramePlugin, { remotes: site.remotes, radio: api.radio });
  await app.register(siteFiles, { config: site, servedDirs: deploys?.servedDirs });
  await app.register(siteMedia);
  // The live's timeline: its recorder, and /direct/ as nginx serves it (docs/timeshift.md).
  await app.register(timeshiftPlugin);
  // The live shows kept as replays when their slot ends, and /archives/ (docs/archive.md).
  await app.register(archivesPlugin, { siteOrigin: site.siteOrigin });
  // The radio's settings at each page, with where « Nous soutenir » leads now (docs/support.md, « Links »).
  const radioNow = radioWithSupport(app, api.radio);
  await app.register(sitePageRoutes, { config: site, radio: radioNow, servedDirs: deploys?.servedDirs });
  // /api/parts (api/routes/parts.ts) outside the /api scope, on purpose (docs/server.md, « Layout »):
  // a team's token rather than XSRF, no CORS, its own errors, and `partsStatus` for /readyz.
  await app.register(siteDeploys, { distDirs: site.distDirs, settings: site.deploy, deploys });
  await app.register(siteHealth);
  // Every route of the server is reserved to it: no part's page takes its address (docs/parts.md,
  // « Addresses »), whatever route a plugin adds later. Read from the route table, once complete.
  app.addHook('onReady', (done) => {
    reserveServerRoutes(routes);
    done();
  });
  return app;
}
