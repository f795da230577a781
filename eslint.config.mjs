// One flat config for the whole workspace: strict type-checked TypeScript, React hooks, and the
// boundaries of the design (remotes import only `shared`; `shared` imports no app).
import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { PARTS } from './shared/parts.mjs';
import { MOVED_TO_HELPERS } from './shared/build/contract.mjs';

/** The folders that may not import one another: every part of the registry, and the server. */
const parts = [...PARTS.map((part) => part.folder), 'server'];

/** Every other part, by package name and by relative path. */
const otherParts = (self) =>
  parts
    .filter((p) => p !== self)
    .flatMap((p) => [`@collectif/${p}`, `@collectif/${p}/*`, `**/${p}/**`, `../${p}/*`, `../../${p}/*`]);

/**
 * The server's rooms on their floors (docs/server.md, « Rooms and floors »): a room imports only from
 * its own floor or the floors below. The doors answer HTTP and build the app; the features are the
 * site's and the API's subjects; the ground holds what every feature stands on.
 */
const serverFloors = {
  doors: ['app', 'admin', 'api', 'site', 'deploy', 'main.ts'],
  features: [
    'archive',
    'content',
    'episodes',
    'events',
    'feed',
    'figures',
    'played-artists',
    'proposals',
    'push',
    'schedule',
    'support',
    'timeshift',
  ],
  ground: ['http', 'upstream', 'files', 'instances', 'metrics', 'settings', 'threads'],
};
const rooms = (names) => names.map((name) => `./server/src/${name}`);
const floorZones = [
  ...serverFloors.doors.map((door) => ({
    target: rooms([...serverFloors.features, ...serverFloors.ground]),
    from: rooms([door]),
    // The shared state checks a deploy's version id with the deploys' own schema.
    except: door === 'deploy' ? ['./versions.ts'] : [],
    message: 'A feature or the ground imports no door (app, admin, api, site, deploy): move what both need down.',
  })),
  {
    target: rooms(serverFloors.ground),
    from: rooms(serverFloors.features),
    message: 'The ground imports no feature: move what both need down.',
  },
];

const typedHooksOnly = [
  {
    name: 'react-redux',
    importNames: ['useSelector', 'useDispatch', 'useStore'],
    message: 'Use the typed hooks from @collectif/shared.',
  },
];

/** Reached through @collectif/shared (shared/src/libraries.ts), so that they are tree-shaken once. */
const throughShared = [
  'react-router-dom',
  'react-router',
  '@reduxjs/toolkit',
  '@reduxjs/toolkit/query',
  '@reduxjs/toolkit/query/react',
  'react-redux',
  'redux',
].map((name) => ({
  name,
  message:
    "Import it from @collectif/shared. A new export of shared/src/libraries.ts is a minor version of the contract (docs/parts.md, « The contract's versions »).",
}));

/**
 * What a part takes from the shared package by its own path (docs/parts.md, « Singletons and
 * helpers »): the helpers the singleton carried up to contract 3.0.0 (lint names their path), and
 * the radio settings, which are the singleton's (only their types from `@collectif/shared/config`).
 */
const contractPaths = [
  ...Object.entries(MOVED_TO_HELPERS).map(([path, importNames]) => ({
    name: '@collectif/shared',
    importNames: [...importNames],
    message: `A helper: import it from ${path}, bundled with the part (docs/parts.md, « Singletons and helpers »).`,
  })),
  {
    name: '@collectif/shared/config',
    allowTypeImports: true,
    message: 'The radio settings are one copy on the page: import them from @collectif/shared.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-embed/**',
      '**/.tsbuild/**',
      '**/node_modules/**',
      'shared/assets/**',
      'server/.demo/**',
      'server/.renderer/**',
      'deploys/**',
      'bench/results/**',
      'e2e/test-results/**',
      'e2e/report/**',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['tools/jest/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    // The resolver import-x recommends (unrs-resolver): it reads packages' conditional exports, which
    // the legacy default fails on (lru-cache). The sources' own extensions first: without them an
    // import of './sandbox' resolves to nothing, and no-cycle sees no cycle at all.
    settings: {
      // The modules no-cycle follows: TypeScript's, read with TypeScript's parser.
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'] })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'import-x/no-cycle': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-redux',
              importNames: ['useSelector', 'useDispatch', 'useStore'],
              message: 'Use the typed hooks from @collectif/shared.',
            },
          ],
        },
      ],
    },
  },
  // Each part imports only @collectif/shared. Its tests, which are not bundled, may also use the
  // libraries directly (MemoryRouter, a bare Provider); its code reaches them through shared.
  ...parts.flatMap((part) =>
    [
      { files: [`${part}/**/*.{ts,tsx}`], libraries: part === 'server' ? [] : throughShared },
      { files: [`${part}/**/*.test.{ts,tsx}`], libraries: [] },
    ].map(({ files, libraries }) => ({
      files,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [...typedHooksOnly, ...libraries, ...(part === 'server' ? [] : contractPaths)],
            patterns: [
              { group: otherParts(part), message: 'A part imports only @collectif/shared, never another part.' },
            ],
          },
        ],
      },
    })),
  ),
  // The server's floors, for its code; its tests build the app and take any room's fixtures. A
  // feature's `/api` routes (`routes.ts`, `routes/`) are its door, registered by the API's scope.
  {
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/**/*.test.ts',
      'server/src/**/testing/**',
      'server/src/*/routes.ts',
      'server/src/*/routes/**',
    ],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: floorZones }] },
  },
  {
    files: ['shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: otherParts('shared'), message: 'shared imports no app.' }] },
      ],
    },
  },
  {
    files: ['shared/src/store/hooks.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts', 'shared/src/test-utils.tsx'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Benchmarks and browser tests run functions inside the page.
    files: ['bench/**/*.mjs', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Playwright fixtures call their own `use`, which is not React's.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // The jest configurations call useHermeticProcessEnv (scripts/hermetic.mjs), which is not React's.
    files: ['jest.config.ts', 'jest.deploy.config.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
);
