import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLoader } from '@collectif/shared/build/loader.mjs';

// Test fixtures of the render tests (render.test.ts, render-pool.test.ts): a shell's server bundle
// as its build makes it (CommonJS, React and the shared package taken from the server), small
// enough to read here. The real parts' bundles are rendered in e2e/tests/ssr.spec.ts.
export const SHELL = `
const React = require('react');
const { createStaticHandler, createStaticRouter, StaticRouterProvider } = require('@collectif/shared/server');
const { StoreProvider, Outlet, SiteEnvironmentContext } = require('@collectif/shared');
const h = React.createElement;
function Area({ id, modules }) {
  const Module = modules.get(id);
  if (Module === undefined) throw new Error('Rendu serveur indisponible pour ' + id);
  return h(Module);
}
const area = (id, modules) => h(React.Suspense, { fallback: h('p', null, 'Chargement ...') }, h(Area, { id, modules }));
exports.renderApp = async ({ url, store, modules, environment }) => {
  const routes = [{
    element: h('div', { className: 'layout' }, h('nav', null, 'Navigation'), h('main', null, h(Outlet)), area('player/Player', modules)),
    children: environment.pages.map((page) => ({ path: page.path, element: area(page.remote + '/' + page.module, modules) })),
  }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  const router = createStaticRouter(handler.dataRoutes, context);
  return h(SiteEnvironmentContext, { value: environment }, h(StoreProvider, { store }, h(StaticRouterProvider, { router, context, hydrate: false })));
};
`;

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
