import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fillPath } from '@collectif/shared/addresses';
import { findPage, type PageMatch, type PageRef, type PartName, type RemotesConfig } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { fileVersion } from '../../watched-file';
import { createBundles, loadContainer, SERVER_BUNDLE, type Bundles } from './bundles';
import { renderPage, type RenderOptions, type RenderOutcome } from './page';

/**
 * What a renderer does (docs/rendering.md, « Renderers »): it loads the parts' server bundles (files
 * or another origin, read again when they change) and renders one page per task. It runs in a
 * sandboxed process of its own (renderer.ts), or in the server's for a debugger (RENDER_WORKERS=0).
 * What the page's store asks of /api, and what the renderer tells while it works, are calls on the
 * task's host: the server answers the API as it answers an anonymous visitor, from the same
 * upstream cache.
 */

export interface RenderTask {
  pathname: string;
  search: string;
  origin: string;
  match: PageMatch | null;
  radio: RadioSettings;
  pages: readonly PageRef[];
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  dataDeadlineMs: number;
  renderDeadlineMs: number;
  /** Server bundles whose evaluation never ended, as `part@version`: not evaluated again. */
  disabled: readonly string[];
  /**
   * The versions of the parts' bundles on this server that may be evaluated (`part@version`): tried
   * off the serving threads, or there when the server started (docs/deploy.md, « The trial »); null:
   * any (no renderer process). A part whose bundle is in another version renders in the browser.
   */
  tried: readonly string[] | null;
}

/** An /api answer, as it crosses processes. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What a render calls on the server that gave it its task. */
export interface RenderHost {
  /** The task has left the queue: its deadline starts now. */
  started(): void;
  /** The page's /api request (a GET with no credentials), answered by the server. */
  api(url: string): Promise<ApiAnswer>;
  log(level: 'warn' | 'debug', message: string): void;
  /** A part's server bundle is being evaluated: if the task is abandoned now, that version is at fault. */
  reading(part: PartName, version: string, where: string): void;
  read(part: PartName, version: string, where: string, problem: string | null): void;
}

/** Server bundles of the task in progress never to evaluate (`part@version`). */
let disabled = new Set<string>();
/** Versions of bundles on this server that may be evaluated (`part@version`); null: any. */
let tried: Set<string> | null = null;
let bundles: { key: string; files: Bundles } | undefined;
/**
 * The hosts of the tasks in progress (one in a renderer; several when the server renders in its own
 * process, RENDER_WORKERS=0): the bundles, made once, speak to the latest.
 */
const hosts: RenderHost[] = [];
const host = (): RenderHost | undefined => hosts.at(-1);

function bundlesFor(task: RenderTask): Bundles {
  const key = JSON.stringify([task.remotes, task.distDirs]);
  const where = new Map<string, string>();
  if (bundles?.key !== key) {
    bundles = {
      key,
      files: createBundles({
        remotes: task.remotes,
        distDirs: task.distDirs,
        warn: (message) => {
          host()?.log('warn', message);
        },
        reading: {
          disabled: (part, version) => disabled.has(`${part}@${version}`),
          untried: (part, version) => tried !== null && !tried.has(`${part}@${version}`),
          start: (part, version, file) => {
            where.set(part, file);
            host()?.reading(part, version, file);
          },
          end: (part, version, problem) => {
            host()?.read(part, version, where.get(part) ?? '', problem);
          },
        },
      }),
    };
  }
  return bundles.files;
}

/** A task that only makes the worker ready (its modules loaded), before the first page's deadline runs. */
export interface WarmUp {
  warmUp: true;
}

/**
 * A part's new server bundle tried before it is used (docs/deploy.md, « The trial »), on a thread
 * that serves no visitor: evaluated, then each of its pages rendered once with the other parts'
 * bundles in use, from the page table it would make.
 */
export interface TrialTask {
  trial: { part: PartName; dir: string };
  origin: string;
  radio: RadioSettings;
  /** The site's page table with the new version's pages in place of the part's. */
  pages: readonly PageRef[];
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  dataDeadlineMs: number;
  renderDeadlineMs: number;
}

/** What a trial found: the version of the bundle tried (as `watchedFile` names it), or why it is refused. */
export type TrialOutcome = { ok: true; version: string; pages: number } | { ok: false; reason: string };

const reasonOf = (error: unknown): string => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
};

/** A page's address with every parameter filled with a made-up value (the page says « introuvable »). */
function trialPath(page: PageRef): string {
  return fillPath(
    page.path,
    Object.fromEntries([...page.path.matchAll(/:(\w+)/g)].map((found) => [found[1] ?? '', 'essai'])),
  );
}

/** The page's /api, answered by the host's server in its own process (docs/rendering.md, « State per request »). */
function apiOver(own: RenderHost, origin: string): RenderOptions['api'] {
  return {
    base: new URL('/api', origin).href,
    transport: async (request) => {
      const { status, headers, body } = await own.api(request.url);
      return new Response(new Uint8Array(body), { status, headers });
    },
  };
}

async function runTrial(task: TrialTask, own: RenderHost): Promise<TrialOutcome> {
  const { part, dir } = task.trial;
  const file = join(dir, SERVER_BUNDLE);
  let version: string;
  let exports: Record<string, unknown>;
  try {
    version = fileVersion(statSync(file)).id;
  } catch {
    return { ok: false, reason: `pas de conteneur serveur (${SERVER_BUNDLE})` };
  }
  try {
    exports = await loadContainer(readFileSync(file, 'utf8'), file, part);
  } catch (error) {
    return { ok: false, reason: `son conteneur serveur échoue au chargement : ${reasonOf(error)}` };
  }
  const modules = exports.modules as Record<string, unknown> | null | undefined;
  if (
    part === 'shell'
      ? typeof exports.renderApp !== 'function'
      : typeof modules !== 'object' || modules === null || Object.keys(modules).length === 0
  ) {
    return {
      ok: false,
      reason: `son conteneur serveur n'expose pas ${part === 'shell' ? 'renderApp (./server)' : 'ses modules'}`,
    };
  }
  const others = createBundles({ remotes: task.remotes, distDirs: task.distDirs });
  const withPart = (value: Record<string, unknown>): RenderOptions['bundles'] =>
    ({ get: async (name: PartName) => (name === part ? value : others.get(name)) }) as unknown as Bundles;
  const home = task.pages.filter((page) => page.path === '');
  const pages = part === 'shell' || part === 'player' ? home : task.pages.filter((page) => page.remote === part);
  const render = async (pathname: string, match: PageMatch, bundles: RenderOptions['bundles']) => {
    const warnings: string[] = [];
    const outcome = await renderPage({
      pathname,
      search: '',
      origin: task.origin,
      match,
      api: apiOver(own, task.origin),
      environment: { radio: task.radio, pages: task.pages },
      bundles,
      dataDeadlineMs: task.dataDeadlineMs,
      renderDeadlineMs: task.renderDeadlineMs,
      log: { warn: (message) => warnings.push(message), debug: () => undefined },
    });
    return { outcome, warnings };
  };
  for (const page of pages) {
    const pathname = trialPath(page);
    const match = findPage(pathname, task.pages);
    if (match === null) continue;
    const { outcome, warnings } = await render(pathname, match, withPart(exports));
    if (outcome.kind !== 'page') {
      return {
        ok: false,
        reason: `la page ${pathname} ne se rend pas : ${outcome.kind === 'browser' ? outcome.reason : outcome.kind}`,
      };
    }
    if (warnings.length > 0) return { ok: false, reason: `la page ${pathname} : ${warnings[0] ?? ''}` };
    // What renders nothing gives the page its part's area left empty: the same page as a module that
    // renders null.
    const module = part === 'player' ? 'Player' : part === 'shell' ? null : page.module;
    if (module !== null && modules !== undefined) {
      const blank = { ...exports, modules: { ...modules, [module]: () => null } };
      const empty = await render(pathname, match, withPart(blank));
      if (empty.outcome.kind === 'page' && empty.outcome.body === outcome.body) {
        return { ok: false, reason: `la page ${pathname} ne rend rien de « ${module} »` };
      }
    } else if (outcome.body.trim() === '') {
      return { ok: false, reason: `la page ${pathname} ne rend rien` };
    }
  }
  return { ok: true, version, pages: pages.length };
}

/** One task: a page rendered (or a bundle tried), with what the host answers and is told. */
export async function runTask(task: TrialTask, own: RenderHost): Promise<TrialOutcome>;
export async function runTask(task: RenderTask | WarmUp, own: RenderHost): Promise<RenderOutcome | null>;
export async function runTask(
  task: RenderTask | WarmUp | TrialTask,
  own: RenderHost,
): Promise<RenderOutcome | TrialOutcome | null> {
  if ('warmUp' in task) return null;
  own.started();
  if ('trial' in task) return runTrial(task, own);
  hosts.push(own);
  disabled = new Set(task.disabled);
  tried = task.tried === null ? null : new Set(task.tried);
  try {
    return await renderPage({
      pathname: task.pathname,
      search: task.search,
      origin: task.origin,
      match: task.match,
      api: apiOver(own, task.origin),
      environment: { radio: task.radio, pages: task.pages },
      bundles: bundlesFor(task),
      dataDeadlineMs: task.dataDeadlineMs,
      renderDeadlineMs: task.renderDeadlineMs,
      log: {
        warn: (message) => {
          own.log('warn', message);
        },
        debug: (message) => {
          own.log('debug', message);
        },
      },
    });
  } finally {
    hosts.splice(hosts.indexOf(own), 1);
  }
}
