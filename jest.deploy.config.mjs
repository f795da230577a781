// @ts-check
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
  transform: {
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
  },
  transformIgnorePatterns: ['/node_modules/(?!(.*/)?cookie/)'],
  // One deployment at a time: the instances, Redis and nginx take the machine's two cores.
  maxWorkers: 1,
};

export default config;
