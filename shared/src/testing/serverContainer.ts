/**
 * A part's server container (`dist/server/remoteEntry.js`, docs/rendering.md, « Server containers »)
 * made by hand for a test, from a few lines of CommonJS that set `exports.modules` and
 * `exports.definitions` (a remote) or `exports.renderApp` (the shell), small enough to read in the test.
 * It answers the federation runtime as a built container does: `init` receives the share scope, and
 * `get('./Module')` a factory of the module (`default`, `page`), `get('./server')` the shell's. The
 * source's `require` gives React and the shared package from the share scope, and anything else from
 * the renderer's own `require` (Node's builtins). The source runs when a module is first asked for,
 * as a built container's modules do. The real parts' containers are rendered in e2e/tests/ssr.spec.ts.
 */
export function serverContainer(source: string): string {
  return `
let scope = {};
const fromScope = (name) => {
  const found = Object.values(scope[name] || {})[0];
  if (!found || typeof found.lib !== 'function') throw new Error('module partagé absent : ' + name);
  return found.lib();
};
const own = require;
let made;
const load = () => {
  if (made === undefined) {
    const module = { exports: {} };
    (function (exports, require, module) {
${source}
    })(module.exports, (name) => (name in scope ? fromScope(name) : own(name)), module);
    made = module.exports;
  }
  return made;
};
module.exports = {
  init(shareScope) {
    scope = shareScope;
  },
  get(request) {
    return Promise.resolve().then(() => {
      const exported = load();
      const name = request.replace(/^\\.\\//, '');
      if (name === 'server') return () => exported;
      return () => ({ default: (exported.modules || {})[name], page: (exported.definitions || {})[name] });
    });
  },
};
`;
}
