// What the parts' production builds take from their libraries (shared/build/webpack.mjs): the files
// webpack resolves, with the configuration a part's build really has.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import enhancedResolve from 'enhanced-resolve';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The radio's builds as `npm run build` makes them (its browser build, its server container…). */
async function radioBuilds(mode) {
  const { default: factory } = await import(join(root, 'mf-radio', 'webpack.config.mjs'));
  return [factory({}, { mode })].flat();
}

/** Where webpack's resolver, with a build's options and its target's conditions, finds `request` from `from`. */
function resolved(build, request, from) {
  const node = String(build.target ?? 'web').includes('node');
  const resolver = enhancedResolve.ResolverFactory.createResolver({
    fileSystem: new enhancedResolve.CachedInputFileSystem(require('node:fs'), 4000),
    useSyncFileSystemCalls: true,
    extensions: build.resolve?.extensions ?? ['.js'],
    alias: build.resolve?.alias ?? {},
    // webpack's own conditions for the target, in production.
    conditionNames: ['webpack', 'production', node ? 'node' : 'browser', 'import', 'module', 'default'],
    mainFields: node ? ['module', 'main'] : ['browser', 'module', 'main'],
  });
  return resolver.resolveSync({}, from, request);
}

describe('a part’s production build', () => {
  it('takes React Router’s production files, in the browser and in its server container (its package names only its development ones)', async () => {
    const builds = await radioBuilds('production');
    const dom = dirname(require.resolve('react-router-dom/package.json'));
    expect(builds.length).toBeGreaterThan(1);
    for (const build of builds) {
      // react-router-dom re-exports react-router and react-router/dom.
      for (const request of ['react-router', 'react-router/dom']) {
        expect([build.name, resolved(build, request, dom)]).toEqual([
          build.name,
          expect.stringMatching(/react-router\/dist\/production\/(index|dom-export)\.mjs$/),
        ]);
      }
    }
  });

  it('leaves React Router’s development files, and their warnings, to a development build', async () => {
    const [browser] = await radioBuilds('development');
    const dom = dirname(require.resolve('react-router-dom/package.json'));
    expect(resolved(browser, 'react-router', dom)).toMatch(/react-router\/dist\/development\//);
  });
});
