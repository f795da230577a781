import type { FastifyInstance } from 'fastify';
import type { PageRef, PartName } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { remotesForServer, type SiteServerConfig } from '../../settings/config';
import { trialTask, tryVersion, type TrialOutcome, type TrialTask } from '../../deploy/trial';
import { createPageCache, PAGE_CACHE_BYTES, PAGE_CACHE_ENTRIES } from './answer';
import { SERVER_CONTAINER } from './containers';
import type { HintsFor } from './hints';
import { createPageWriter } from './page-writer';
import { createPartFiles } from './part-files';
import { readinessOf } from './readiness';
import { createRenderPool, type RenderPool } from './render-pool';
import { visitorApi } from './renderer-requests';
import { browserRenderLog, responderOf, type Responder } from './respond';
import { createVersionsInUse } from './versions-in-use';

/**
 * What a page request crosses, made once when the server starts (docs/rendering.md, « A page's way,
 * file by file »): the renderers' pool, the parts' containers read for their versions, the versions in
 * use, the page cache and the page writer. The request itself is respond.ts's; `/readyz` is
 * readiness.ts's; a deploy's trial is deploy/trial.ts's.
 */

// What other modules have always imported from here (the app, the route, the tests).
export {
  acceptsBrotli,
  brotliPage,
  createPageCache,
  PAGE_BROTLI_QUALITY,
  PAGE_CACHE_CONTROL,
  RESPONSE_ENCODINGS,
  type CachedPage,
  type PageCacheOptions,
} from './answer';
export type { Readiness } from './readiness';
export { visitorApi } from './renderer-requests';

/** Past this, a page renders with the data that has arrived (docs/rendering.md, « Deadlines »). */
export const DATA_DEADLINE_MS = 1000;
/** Past this, what React has not rendered is left to the browser. */
export const RENDER_DEADLINE_MS = 2000;
/** A renderer's render is abandoned, and the renderer replaced, this long after both deadlines. */
const POOL_MARGIN_MS = 500;

export interface ResponderOptions {
  app: FastifyInstance;
  config: SiteServerConfig;
  /** The radio's run-time settings as they are now (read at each page: page-writer.ts, PageWriterOptions). */
  radio: () => RadioSettings;
  /** The shell's list of its entry's scripts, styles, fonts and loader (render/shell-assets.ts). */
  assetsPath: string;
  /** What a page announces, and its areas' sheets (hints.ts, `createHints`). */
  hints: HintsFor;
  dataDeadlineMs?: number;
}

/**
 * Answers every page of the site (docs/rendering.md): rendered on the server from the parts' server
 * containers, or, when the shell's cannot render, the shell's page as before, rendered by the browser.
 * Also what `/readyz` says, and the trial of a part's new version before a deploy makes it live.
 */
export function createPageResponder({
  app,
  config,
  radio,
  assetsPath,
  hints,
  dataDeadlineMs = DATA_DEADLINE_MS,
}: ResponderOptions) {
  // Where the server itself reads the parts' files: a remote in development from its dev server.
  const remotes = remotesForServer(config);
  const settings: Responder['settings'] = {
    origin: config.siteOrigin,
    remotes,
    distDirs: config.distDirs,
    dataDeadlineMs,
    renderDeadlineMs: RENDER_DEADLINE_MS,
  };
  const site = (): Omit<TrialTask, 'trial' | 'pages'> => ({ ...settings, radio: radio() });
  const pool = startRenderPool(app, config, dataDeadlineMs);
  const containers = createPartFiles<Record<string, unknown>>({
    remotes,
    distDirs: config.distDirs,
    path: SERVER_CONTAINER,
    what: 'Conteneur serveur',
    // Its version only: its code runs in the renderers.
    read: () => ({}),
  });
  /** What a trial of a part's container on this server needs besides the part (its folder, the table). */
  const trialTaskOf = (part: PartName, dir: string, pages: readonly PageRef[]): TrialTask =>
    trialTask(site(), part, dir, pages);
  const versions = createVersionsInUse({
    containers,
    pool,
    remotes,
    distDirs: config.distDirs,
    trialTask: trialTaskOf,
  });
  const cache = createPageCache({
    ttlMs: config.pageCacheTtlMs,
    maxEntries: PAGE_CACHE_ENTRIES,
    maxBytes: PAGE_CACHE_BYTES,
  });
  const writer = createPageWriter({
    shellDir: config.distDirs.shell,
    remotes: config.remotes,
    radio,
    assetsPath,
    hints,
    editorOrigin: config.editorOrigin,
    assetsDir: config.assetsDir,
    warn: (message) => {
      app.log.warn(message);
    },
  });
  const responder: Responder = {
    app,
    ssr: config.ssr,
    settings,
    radio,
    pool,
    containers,
    versions,
    cache,
    writer,
    browserRenders: browserRenderLog(app.log),
  };

  return {
    respond: responderOf(responder),
    readiness: () =>
      readinessOf({
        built: writer.shellAssets() !== null,
        serverRendering: config.ssr,
        containers,
        pool,
        trials: versions.trials,
        sitePages: () => app.sitePages(),
      }),
    /**
     * Tries a part's new version in `dir` before it goes live (a deploy): its server container evaluated
     * and its pages rendered once, in the trial's renderer, with the page table it would make.
     */
    trial: async (part: PartName, dir: string, pages: readonly PageRef[]): Promise<TrialOutcome> => {
      await versions.trusted;
      return tryVersion(pool, site(), part, dir, pages);
    },
  };
}

/**
 * The renderers of this server (docs/rendering.md, « Renderers »). The parts' server code runs in
 * renderer processes (RENDERERS), never in this one, which reads the containers' files for their
 * versions (the cache's key) only. A render is abandoned past both deadlines and a margin; a renderer
 * reads nothing beyond its code but the parts' folders and the deployed versions, and asks /api as a
 * visitor. The pool closes with the server.
 */
function startRenderPool(app: FastifyInstance, config: SiteServerConfig, dataDeadlineMs: number): RenderPool {
  const pool = createRenderPool({
    renderers: config.renderers,
    metrics: app.metrics.site,
    deadlineMs: dataDeadlineMs + RENDER_DEADLINE_MS + POOL_MARGIN_MS,
    recycleAfter: config.renderRecycleAfter,
    trialDeadlineMs: config.renderTrialMs,
    idleMs: config.renderIdleMs,
    keepOne: config.renderKeepOne,
    // Teams deploy: their code runs behind the operating system's walls, or the server does not start.
    requireWalls: config.deploy !== null,
    answerApi: visitorApi(app),
    distDirs: config.distDirs,
    env: config.rendererEnv,
    log: {
      warn: (message: string) => {
        app.log.warn(message);
      },
      debug: (message: string) => {
        app.log.debug(message);
      },
    },
  });
  app.addHook('onClose', async () => {
    await pool.close();
  });
  return pool;
}
