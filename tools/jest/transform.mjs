// @ts-check
// What both jest configurations (jest.config.ts, jest.deploy.config.ts) compile the tests with. A
// module of its own, in JavaScript: the deployment's configuration importing jest.config.ts would
// make Node guess that file's module type, with a warning at every run (the root package.json
// names no "type"); an .mjs file says it.

/**
 * TypeScript and TSX through SWC, React's automatic runtime.
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

/**
 * cookie@2 (used by fastify's inject) ships ES modules only.
 * @type {string[]}
 */
export const serverIgnorePatterns = ['/node_modules/(?!(.*/)?cookie/)'];
