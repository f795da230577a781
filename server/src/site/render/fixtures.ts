import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { buildLoader } from '@collectif/shared/build/loader.mjs';
import { pagesJson } from '@collectif/shared/testing';

// Test fixtures of the render tests (render.test.ts, render-pool.test.ts): a shell's server container
// as its build makes it (CommonJS, React and the shared package taken from the server), small
// enough to read here. The real parts' containers are rendered in e2e/tests/ssr.spec.ts.
export const SHELL = `
const React = require('react');
const { createStaticHandler, createStaticRouter, StaticRouterProvider } = require('@collectif/shared/server');
const { StoreProvider, Outlet, SiteEnvironmentContext, data } = require('@collectif/shared');
const h = React.createElement;
function Area({ id, modules }) {
  const Module = modules.get(id);
  if (Module === undefined) throw new Error('Rendu serveur indisponible pour ' + id);
  return h(Module);
}
const area = (id, modules) => h(React.Suspense, { fallback: h('p', null, 'Chargement ...') }, h(Area, { id, modules }));
exports.renderApp = async ({ url, store, modules, definitions, environment, origin, dataDeadlineMs }) => {
  // Each page a data route whose loader runs its definition, as the shell's (shell/src/pages/lifecycle.ts).
  const loader = (page) => async ({ params, request }) => {
    const definition = definitions.get(page.remote + '/' + page.module);
    const context = { params, origin, query: new URL(request.url).searchParams, radio: environment.radio, href: () => null };
    const queries = (definition && definition.load && definition.load({ ...context, dispatch: store.dispatch })) || [];
    await Promise.race([Promise.allSettled(queries), new Promise((resolve) => setTimeout(resolve, dataDeadlineMs).unref())]);
    const head = (definition && definition.head && definition.head({ ...context, state: store.getState() })) || {};
    heads.set(page, head);
    const preloads = (definition && definition.preloads && definition.preloads({ ...context, state: store.getState() })) || [];
    return data({ head, preloads }, { status: head.status || 200 });
  };
  // The page's JSON-LD where the page is, as the shell's head component renders it
  // (shell/src/layout/PageHead.tsx), from the head its loader computed.
  const heads = new Map();
  const jsonLd = (page) => () =>
    ((heads.get(page) || {}).jsonLd || []).map((node, index) =>
      h('script', { key: index, type: 'application/ld+json', dangerouslySetInnerHTML: { __html: JSON.stringify({ '@context': 'https://schema.org', ...node }) } }));
  const routes = [{
    id: 'layout',
    element: h('div', { className: 'layout' }, h('nav', null, 'Navigation'), h('main', null, h(Outlet)), area('player/Player', modules)),
    children: environment.pages.map((page) => ({ id: page.module + ':' + page.path, path: page.path, loader: loader(page), element: h(React.Fragment, null, h(jsonLd(page)), area(page.remote + '/' + page.module, modules)) })),
  }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  const router = createStaticRouter(handler.dataRoutes, context);
  const loaded = Object.values(context.loaderData).find((value) => value !== undefined && value !== null) || {};
  return {
    element: h(SiteEnvironmentContext, { value: environment }, h(StoreProvider, { store }, h(StaticRouterProvider, { router, context, hydrate: false }))),
    status: context.statusCode,
    head: loaded.head || {},
    preloads: loaded.preloads || [],
    hydration: { loaderData: Object.fromEntries(Object.keys(context.loaderData).map((id) => [id, null])) },
  };
};
`;

/**
 * The least of a built site a page needs, under `dir`: the shell's document and entry, each part's
 * manifest, and the page tables of the parts that have pages (the browser renders the page).
 */
export function writeLeastSite(dir: string): void {
  writeUnder(dir, 'shell/dist/document.json', documentJson());
  writeUnder(dir, 'shell/dist/main.js', '/* shell */');
  for (const part of ['mf-player', 'mf-radio', 'mf-label', 'mf-about']) {
    writeUnder(dir, `${part}/dist/mf-manifest.json`, '{}');
  }
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) writeUnder(dir, `${part}/dist/pages.json`, pagesJson(part));
}

/** Writes `content` at `path` under `dir`, making its folders. */
export function writeUnder(dir: string, path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

/** The shell's loader as its build makes it (shared/build/loader.mjs), for a fixture's `document.json`. */
export const LOADER = buildLoader(join(__dirname, '..', '..', '..', '..', 'shell', 'src', 'boot', 'loader.ts'));

/** A shell build's `document.json`: its entry, its sheets, no fonts, and the loader. */
export const documentJson = (styles: string[] = [], scripts: string[] = ['/main.js']): string =>
  JSON.stringify({ scripts, styles, fonts: [], loader: LOADER });

/** Whether an inspector answers on its default port (what SIGUSR1 would open in a Node process). */
export function inspectorAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(9229, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => {
      resolve(false);
    });
  });
}
