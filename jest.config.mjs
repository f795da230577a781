/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const transform: Config['transform'] = {
  '^.+\\.(t|j)sx?$': [
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

const browserPart = (name: string): Config => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testEnvironment: '<rootDir>/../tools/jest/environment.cjs',
  setupFilesAfterEnv: ['<rootDir>/../tools/jest/setup-dom.ts'],
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  moduleNameMapper: { '\\.css$': '<rootDir>/../tools/jest/style-stub.cjs' },
  transform,
  // Some registry packages ship ES modules only.
  transformIgnorePatterns: ['/node_modules/(?!(embla-carousel|dompurify)/)'],
});

/** One jest run over every package (npm run test:unit). */
const config: Config = {
  projects: [
    browserPart('shared'),
    browserPart('shell'),
    browserPart('mf-player'),
    browserPart('mf-radio'),
    browserPart('mf-label'),
    browserPart('mf-about'),
    {
      displayName: 'server',
      rootDir: '<rootDir>/server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/scripts/**/*.test.ts'],
      transform,
      // cookie@2 (used by fastify's inject) ships ES modules only.
      transformIgnorePatterns: ['/node_modules/(?!(.*/)?cookie/)'],
    },
  ],
};

export default config;
