// @ts-check
import { serverIgnorePatterns, transform } from './jest.config.mjs';
import { useHermeticProcessEnv } from './scripts/hermetic.mjs';

useHermeticProcessEnv();

/**
 * The deployment's tests (npm run test:deploy; run by npm test when Debian's redis-server and nginx
 * are installed): several instances of the server, Redis and nginx, for real on loopback
 * (docs/deploy.md).
 * @type {import('jest').Config}
 */
const config = {
  displayName: 'deploy',
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/server/deploy/**/*.test.ts'],
  transform,
  transformIgnorePatterns: serverIgnorePatterns,
  // One deployment at a time: the instances, Redis and nginx take the machine's two cores.
  maxWorkers: 1,
};

export default config;
