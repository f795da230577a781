// Loaded as jest.config.ts is, by Node's own type stripping.
import type { Config } from 'jest';
import { useHermeticProcessEnv } from './scripts/hermetic.mjs';
import { serverIgnorePatterns, transform } from './tools/jest/transform.mjs';

useHermeticProcessEnv();

/**
 * The deployment's tests (npm run test:deploy; run by npm test when Debian's redis-server and nginx
 * are installed): several instances of the server, Redis and nginx, for real on loopback
 * (docs/deploy.md).
 */
const config: Config = {
  displayName: 'deploy',
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/server/deploy/**/*.test.ts'],
  transform,
  transformIgnorePatterns: serverIgnorePatterns,
  // One deployment at a time: the instances, Redis and nginx take the machine's two cores.
  maxWorkers: 1,
  // Every temporary file of the run in one folder, removed when it ends (tools/jest/temp-setup.mjs).
  globalSetup: '<rootDir>/tools/jest/temp-setup.mjs',
  globalTeardown: '<rootDir>/tools/jest/temp-teardown.mjs',
};

export default config;
