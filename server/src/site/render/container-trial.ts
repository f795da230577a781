import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findPage, type PageMatch, type PageRef, type PartName } from '@collectif/shared';
import { fillPath } from '@collectif/shared/addresses';
import { fileVersion } from '../../files/watched-file';
import { createServerContainers, SERVER_CONTAINER, type ServerContainers } from './containers';
import { loadContainer } from './federation';
import type { RenderHost, TrialOutcome, TrialTask } from './protocol';
import { apiOver, fileOver, renderPage, type RenderOptions } from './render-page';

/*
 * A trial (docs/deploy.md, « The trial »): what a trial's renderer does with a part's new server
 * container. The server asks for it through its pool (deploy/trial.ts); the deploy's other checks
 * are in deploy/.
 */

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

/**
 * A part's new server container tried in a renderer of its own (docs/deploy.md, « The trial »):
 * loaded, then each of its pages rendered once with the other parts' containers in use, from the
 * page table it would make. Refused when it throws, exposes nothing, renders nothing of its own or
 * warns.
 */
export async function tryContainer(task: TrialTask, own: RenderHost): Promise<TrialOutcome> {
  const { part, dir } = task.trial;
  const file = join(dir, SERVER_CONTAINER);
  let version: string;
  let exports: Record<string, unknown>;
  try {
    version = fileVersion(statSync(file)).id;
  } catch {
    return { ok: false, reason: `pas de conteneur serveur (${SERVER_CONTAINER})` };
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
  const others = createServerContainers({
    remotes: task.remotes,
    distDirs: task.distDirs,
    fetchFile: fileOver(() => own),
  });
  const withPart = (value: Record<string, unknown>): RenderOptions['containers'] =>
    ({ get: async (name: PartName) => (name === part ? value : others.get(name)) }) as unknown as ServerContainers;
  const home = task.pages.filter((page) => page.path === '');
  const pages = part === 'shell' || part === 'player' ? home : task.pages.filter((page) => page.remote === part);
  const render = async (pathname: string, match: PageMatch, containers: RenderOptions['containers']) => {
    const warnings: string[] = [];
    const outcome = await renderPage({
      pathname,
      search: '',
      origin: task.origin,
      match,
      api: apiOver(own, task.origin),
      environment: { radio: task.radio, pages: task.pages },
      containers,
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
