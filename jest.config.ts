// Loaded by jest through Node's own type stripping (Node 24, the project's: package.json « //pins »),
// with no TypeScript loader to install: erasable syntax only (types and `import type`), and imports
// named with their extension (npm run typecheck checks the types and the syntax: tsconfig.jest.json).
import type { Config } from 'jest';
import { PARTS } from './shared/parts.mjs';
import { useHermeticProcessEnv } from './scripts/hermetic.mjs';
import { serverIgnorePatterns, transform } from './tools/jest/transform.mjs';

// Every test runs in the same zone and locale on any machine (docs/testing.md); the workers inherit them.
useHermeticProcessEnv();

const browserPart = (name: string): Config => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testEnvironment: '<rootDir>/../tools/jest/environment.cjs',
  setupFilesAfterEnv: ['<rootDir>/../tools/jest/setup-dom.ts'],
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  moduleNameMapper: { '\\.css$': '<rootDir>/../tools/jest/style-stub.cjs' },
  transform: {
    ...transform,
    'shared[\\/]content[\\/]residences\\.json$': '<rootDir>/../tools/jest/safe-residences.cjs',
  },
  // Some registry packages ship ES modules only.
  transformIgnorePatterns: ['/node_modules/(?!(embla-carousel)/)'],
});

/**
 * One jest run over every package (npm run test:unit): shared, each part of the registry
 * (shared/parts.mjs), the server.
 */
const config: Config = {
  // Two workers, even on a machine of two cores: the tests wait on loopback servers, threads and
  // timers more than they compute. Measured one after the other on one machine of two cores:
  // 231 s with two, 319 s with one (the default there, the cores but one).
  maxWorkers: 2,
  // A guard against a test that hangs, not a timing goal (those are benchmarks, bench/): the tests
  // that start servers and threads took more than jest's 5 s on a loaded machine of two cores.
  testTimeout: 15_000,
  // Every temporary file of the run in one folder, removed when it ends (tools/jest/temp-setup.mjs);
  // a run that a test keeps alive once they have all ended is ended as failed, with what holds it
  // named (tools/jest/open-handles.mjs).
  globalSetup: '<rootDir>/tools/jest/temp-setup.mjs',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.mjs',
  projects: [
    browserPart('shared'),
    ...PARTS.map((part) => browserPart(part.folder)),
    {
      displayName: 'server',
      rootDir: '<rootDir>/server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/scripts/**/*.test.ts'],
      transform,
      transformIgnorePatterns: serverIgnorePatterns,
    },
    {
      // What the build does to the files it emits (shared/build/).
      displayName: 'build',
      rootDir: '<rootDir>/shared/build',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.test.mjs'],
      transform,
    },
    {
      // The contributors' scripts (npm run doctor), run as processes, and the tests' own tools.
      displayName: 'scripts',
      rootDir: '<rootDir>/scripts',
      roots: ['<rootDir>', '<rootDir>/../tools'],
      testEnvironment: 'node',
      testMatch: ['**/*.test.mjs'],
      transform,
    },
  ],
};

export default config;
