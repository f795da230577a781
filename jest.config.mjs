// @ts-check
import { PARTS } from './shared/parts.mjs';
import { useHermeticProcessEnv } from './scripts/hermetic.mjs';

// Every test runs in the same zone and locale on any machine (docs/testing.md); the workers inherit them.
useHermeticProcessEnv();

/**
 * TypeScript and TSX through SWC, React's automatic runtime (the deployment tests' config uses it too).
 * @type {import('jest').Config['transform']}
 */
export const transform = {
  '^.+\\.m?[tj]sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
    },
  ],
};

/** cookie@2 (used by fastify's inject) ships ES modules only. */
export const serverIgnorePatterns = ['/node_modules/(?!(.*/)?cookie/)'];

/**
 * @param {string} name
 * @returns {import('jest').Config}
 */
const browserPart = (name) => ({
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
 * @type {import('jest').Config}
 */
const config = {
  // Two workers, even on a machine of two cores: the tests wait on loopback servers, threads and
  // timers more than they compute. Measured one after the other on one machine of two cores:
  // 231 s with two, 319 s with one (the default there, the cores but one).
  maxWorkers: 2,
  // A guard against a test that hangs, not a timing goal (those are benchmarks, bench/): the tests
  // that start servers and threads took more than jest's 5 s on a loaded machine of two cores.
  testTimeout: 15_000,
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
      // The contributors' scripts (npm run doctor), run as processes.
      displayName: 'scripts',
      rootDir: '<rootDir>/scripts',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.test.mjs'],
      transform,
    },
  ],
};

export default config;
