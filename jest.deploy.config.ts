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
  // How long a test or a hook may take: a guard against one that hangs, not a timing goal. These
  // tests start servers (instances, Redis, nginx, Icecast) and `npm test` runs them beside jest on
  // two cores: there, starting one instance of the server took more than jest's default 5 s
  // (docs/testing.md, « A failing test fails the run »).
  testTimeout: 60_000,
  // Every temporary file of the run in one folder, removed when it ends (tools/jest/temp-setup.mjs);
  // a run that a test keeps alive once they have all ended is ended as failed, with what holds it
  // named (tools/jest/open-handles.mjs).
  globalSetup: '<rootDir>/tools/jest/temp-setup.mjs',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.mjs',
};

export default config;
