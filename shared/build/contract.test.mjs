// The shared package as the parts get it (shared/build/contract.mjs; docs/parts.md, « Singletons and
// helpers »): which entries are the one federated singleton and which each part bundles, the
// version a part is built against, and what the build writes in `dist/part.json`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import { parseSync } from '@swc/core';
import semver from 'semver';
import {
  CONTRACT_PACKAGE,
  CURRENT_CONTRACT,
  HELPER_ENTRIES,
  ONE_COPY_LIBRARIES,
  OTHER_ENTRIES,
  PREVIOUS_SHELLS,
  SINGLETON_ENTRY,
  SINGLETON_MODULES,
  contractRange,
  contractVersion,
  partInfo,
} from './contract.mjs';
import { federatedConfig } from './webpack.mjs';

const sharedDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(sharedDir, '..');
/** @type {{ version: string, exports: Record<string, string> }} */
const sharedPkg = JSON.parse(readFileSync(join(sharedDir, 'package.json'), 'utf8'));

/**
 * The files a module imports at run time (type-only imports are erased), by specifier.
 * @param {string} file
 * @returns {string[]}
 */
function runtimeImports(file) {
  const tsx = file.endsWith('.tsx');
  const program = parseSync(readFileSync(file, 'utf8'), {
    syntax: file.endsWith('.mjs') || file.endsWith('.js') ? 'ecmascript' : 'typescript',
    tsx,
    jsx: tsx,
  });
  /** @type {string[]} */
  const specifiers = [];
  for (const item of program.body) {
    if (item.type === 'ImportDeclaration' && !item.typeOnly) {
      const values = item.specifiers.filter((s) => !('isTypeOnly' in s && s.isTypeOnly));
      if (item.specifiers.length === 0 || values.length > 0) specifiers.push(item.source.value);
    }
    if ((item.type === 'ExportNamedDeclaration' && !item.typeOnly) || item.type === 'ExportAllDeclaration') {
      if (item.source) specifiers.push(item.source.value);
    }
  }
  return specifiers;
}

/** @param {string} base @param {string} specifier */
function resolveRelative(base, specifier) {
  const target = join(dirname(base), specifier);
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  throw new Error(`${base} : ${specifier} introuvable`);
}

/**
 * Every file a helper entry brings into a part through relative imports, and every package it
 * imports, from its entry file.
 * @param {string} entryFile
 */
function bundledWith(entryFile) {
  const files = new Set([entryFile]);
  const packages = new Set();
  const queue = [entryFile];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (!/\.(ts|tsx|mjs)$/.test(file)) continue;
    for (const specifier of runtimeImports(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const next = resolveRelative(file, specifier);
      if (!files.has(next)) {
        files.add(next);
        queue.push(next);
      }
    }
  }
  return { files: [...files].map((file) => relative(join(sharedDir, 'src'), file)), packages: [...packages] };
}

describe('the entries of @collectif/shared', () => {
  it('are each the singleton, a helper or for the server, the build and the tests, once', () => {
    const classified = [SINGLETON_ENTRY, ...HELPER_ENTRIES, ...OTHER_ENTRIES];
    expect([...classified].sort()).toEqual(Object.keys(sharedPkg.exports).sort());
    expect(new Set(classified).size).toBe(classified.length);
  });

  const codeHelpers = HELPER_ENTRIES.filter((entry) => !entry.endsWith('/*'));

  it.each(codeHelpers)('%s brings no second copy of a singleton module or library into a part', (entry) => {
    const file = join(sharedDir, sharedPkg.exports[entry] ?? '');
    const { files, packages } = bundledWith(file);
    const singletonFiles = files.filter((f) =>
      SINGLETON_MODULES.some((module) => (module.endsWith('/') ? f.startsWith(module) : f === module)),
    );
    expect(singletonFiles).toEqual([]);
    const oneCopy = packages.filter((p) => ONE_COPY_LIBRARIES.some((l) => p === l || p.startsWith(`${l}/`)));
    expect(oneCopy).toEqual([]);
  });

  it('finds what an entry that is no helper brings along', () => {
    // `./schemas` (the server's) reads the label's address from the site's configuration module, which
    // also holds the radio settings: in a part, that would be a second copy of them.
    const { files } = bundledWith(join(sharedDir, sharedPkg.exports['./schemas'] ?? ''));
    expect(files).toEqual(expect.arrayContaining(['schemas/answers.ts', 'config/index.ts', 'config/radio.ts']));
  });
});

describe('the contract version', () => {
  it('is the one docs/contract.md gives as current', () => {
    const doc = readFileSync(join(root, 'docs', 'contract.md'), 'utf8');
    expect(doc).toContain(`The current version is **${CURRENT_CONTRACT}**`);
    expect(semver.valid(CURRENT_CONTRACT)).toBe(CURRENT_CONTRACT);
  });

  it("is shared/package.json's unless a test sets CONTRACT_VERSION", () => {
    expect(contractVersion({})).toBe(sharedPkg.version);
    expect(contractVersion({ CONTRACT_VERSION: '' })).toBe(sharedPkg.version);
    expect(contractVersion({ CONTRACT_VERSION: '2.3.0' })).toBe('2.3.0');
    expect(() => contractVersion({ CONTRACT_VERSION: 'deux' })).toThrow(
      "CONTRACT_VERSION « deux » n'est pas une version",
    );
  });

  it('gives a remote the range of its major from its minor', () => {
    expect(contractRange('2.4.3')).toBe('^2.4.0');
    expect(contractRange('3.0.0')).toBe('^3.0.0');
    // The shell of this version serves a remote built against this minor or an earlier one, not a later one.
    expect(semver.satisfies('2.5.0', contractRange('2.4.0'))).toBe(true);
    expect(semver.satisfies('2.5.0', contractRange('2.5.1'))).toBe(true);
    expect(semver.satisfies('2.5.0', contractRange('2.6.0'))).toBe(false);
    expect(semver.satisfies('3.0.0', contractRange('2.4.0'))).toBe(false);
  });

  it('gives a remote ready for the next major both ranges', () => {
    expect(contractRange('2.5.0', '^3.0.0')).toBe('^2.5.0 || ^3.0.0');
    expect(semver.satisfies('2.5.0', contractRange('2.5.0', '^3.0.0'))).toBe(true);
    expect(semver.satisfies('3.0.0', contractRange('2.5.0', '^3.0.0'))).toBe(true);
    expect(() => contractRange('2.5.0', 'trois')).toThrow("alsoAccepts « trois » n'est pas un intervalle de versions");
  });
});

/**
 * A part's browser build, as its webpack.config.mjs makes it.
 * @param {import('../src/remotes').PartName} name
 * @param {string} folder
 */
function browserConfig(name, folder) {
  const configs = federatedConfig({ name, dir: join(root, folder) })({}, { mode: 'production' });
  const config = configs[0];
  if (config === undefined) throw new Error('pas de configuration');
  return config;
}

/**
 * The federation options of a build.
 * @param {import('webpack').Configuration} config
 * @returns {{ shared: Record<string, Record<string, unknown>> }}
 */
function federation(config) {
  const plugin = (config.plugins ?? []).find((p) => p?.constructor.name === 'ModuleFederationPlugin');
  return /** @type {any} */ (plugin)._options;
}

/**
 * What the build writes as `part.json`.
 * @param {import('webpack').Configuration} config
 */
function builtPartJson(config) {
  const plugin = /** @type {any} */ (
    (config.plugins ?? []).find((p) => /** @type {any} */ (p)?.fileName === 'part.json')
  );
  return plugin.value();
}

/** The checkout's commit as git names it briefly, or null outside a checkout. */
function headCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

describe("a part's build", () => {
  const saved = process.env.CONTRACT_VERSION;
  afterEach(() => {
    if (saved === undefined) delete process.env.CONTRACT_VERSION;
    else process.env.CONTRACT_VERSION = saved;
  });

  it('shares the singleton by its main entry only: the helpers are bundled into each part', () => {
    for (const [name, folder] of /** @type {const} */ ([
      ['shell', 'shell'],
      ['about', 'mf-about'],
    ])) {
      const keys = Object.keys(federation(browserConfig(name, folder)).shared);
      expect(keys).toContain(CONTRACT_PACKAGE);
      expect(keys.filter((key) => key.startsWith(`${CONTRACT_PACKAGE}/`))).toEqual([]);
    }
  });

  it('the shell provides the exact contract version and writes it in part.json', () => {
    delete process.env.CONTRACT_VERSION;
    const config = browserConfig('shell', 'shell');
    expect(federation(config).shared[CONTRACT_PACKAGE]).toMatchObject({
      singleton: true,
      eager: true,
      version: CURRENT_CONTRACT,
      requiredVersion: contractRange(CURRENT_CONTRACT),
    });
    const part = builtPartJson(config);
    expect(part).toEqual({
      name: 'shell',
      contract: CURRENT_CONTRACT,
      builtAt: expect.any(String),
      commit: headCommit(),
    });
    expect(new Date(part.builtAt).toISOString()).toBe(part.builtAt);
  });

  it('a remote requires the range of its contract version, CONTRACT_VERSION included', () => {
    delete process.env.CONTRACT_VERSION;
    const current = browserConfig('about', 'mf-about');
    // A remote of the current contract also runs under the previous major's shells (PREVIOUS_SHELLS).
    const both = contractRange(CURRENT_CONTRACT, PREVIOUS_SHELLS);
    expect(both).toBe('^4.0.0 || ^3.3.0');
    expect(federation(current).shared[CONTRACT_PACKAGE]).toMatchObject({ singleton: true, requiredVersion: both });
    expect(builtPartJson(current)).toMatchObject({ name: 'about', contract: both });

    const ready = federatedConfig({ name: 'about', dir: join(root, 'mf-about'), alsoAccepts: '^3.0.0' })(
      {},
      { mode: 'production' },
    )[0];
    expect(federation(ready).shared[CONTRACT_PACKAGE]).toMatchObject({
      requiredVersion: `${contractRange(CURRENT_CONTRACT)} || ^3.0.0`,
    });
    expect(builtPartJson(ready)).toMatchObject({ contract: `${contractRange(CURRENT_CONTRACT)} || ^3.0.0` });

    process.env.CONTRACT_VERSION = '2.3.0';
    const previous = browserConfig('about', 'mf-about');
    expect(federation(previous).shared[CONTRACT_PACKAGE]).toMatchObject({ requiredVersion: '^2.3.0' });
    expect(builtPartJson(previous)).toMatchObject({ name: 'about', contract: '^2.3.0' });
  });

  it("part.json's commit is null outside a git checkout", () => {
    const info = partInfo({ name: 'label', isHost: false, version: '2.5.0', builtAt: new Date(0), commit: null });
    expect(info).toEqual({ name: 'label', contract: '^2.5.0', builtAt: '1970-01-01T00:00:00.000Z', commit: null });
  });
});
