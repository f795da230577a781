import { spawnSync } from 'node:child_process';
import Ajv2020 from 'ajv/dist/2020';
import type { FastifyInstance } from 'fastify';
import { workspaceRoot } from '../settings/config';
import { buildApi, testConfig } from './testing/fixtures';

// The API described once (docs/api.md, « The description »): GET /api/openapi.json is a valid
// OpenAPI 3.1 document, checked by a validator made for OpenAPI, and the demo's real answers match
// the answers it describes. That it names every /api route is checked on the whole app
// (server/src/docs.test.ts, beside the table of routes).

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface Description {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

let app: FastifyInstance;
let description: Description;

beforeAll(async () => {
  app = await buildApi({ config: testConfig() });
  const answer = await app.inject({ url: '/api/openapi.json' });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  description = answer.json<Description>();
});

afterAll(async () => {
  await app.close();
});

/**
 * The document checked by @seriousme/openapi-schema-validator (OpenAPI's own schemas, for 2.0 to
 * 3.2). It is an ES module only: run by Node itself, beside jest's module system.
 */
function validated(document: unknown): { valid: boolean; version: string; errors: unknown } {
  const script = `import('@seriousme/openapi-schema-validator').then(async ({ Validator }) => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(require('node:fs').readFileSync(0, 'utf8')));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
  });`;
  const ran = spawnSync(process.execPath, ['-e', script], {
    cwd: workspaceRoot,
    input: JSON.stringify(document),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (ran.status !== 0) throw new Error(ran.stderr);
  return JSON.parse(ran.stdout) as { valid: boolean; version: string; errors: unknown };
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(description.openapi).toBe('3.1.0');
    expect(validated(description)).toEqual({ valid: true, version: '3.1', errors: null });
    // And the validator refuses what is not one (it can fail).
    expect(validated({ ...description, paths: { '/api/x': { get: { responses: 'aucune' } } } }).valid).toBe(false);
  });

  it('describes the demo’s real answers: each public GET answered 200 matches its schema', async () => {
    const { items } = (await app.inject({ url: '/api/episodes' })).json<{ items: { slug: string }[] }>();
    const { coming } = (await app.inject({ url: '/api/events' })).json<{ coming: { slug: string }[] }>();
    const examples: Record<string, string> = {
      '/api/episodes/{slug}': `/api/episodes/${items[0]?.slug ?? ''}`,
      '/api/events/{slug}': `/api/events/${coming[0]?.slug ?? ''}`,
      '/api/artists/{slug}': '/api/artists/axonberg',
      '/api/content/{kind}': '/api/content/residences',
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const checked: string[] = [];
    const mismatched: { url: string; errors: unknown }[] = [];
    for (const [path, operations] of Object.entries(description.paths)) {
      const schema = operations.get?.responses?.['200']?.content?.['application/json']?.schema;
      if (schema === undefined) continue;
      const url = examples[path] ?? path;
      if (url.includes('{')) continue;
      const answer = await app.inject({ url });
      if (answer.statusCode !== 200) continue;
      if (!String(answer.headers['content-type']).startsWith('application/json')) {
        mismatched.push({ url, errors: `décrite en JSON, répond ${String(answer.headers['content-type'])}` });
        continue;
      }
      const check = ajv.compile(schema);
      if (!check(answer.json())) mismatched.push({ url, errors: check.errors });
      checked.push(path);
    }
    expect(mismatched).toEqual([]);
    // The public answers are all among them.
    expect(checked).toEqual(
      expect.arrayContaining([
        '/api/podcasts',
        '/api/episodes',
        '/api/episodes/{slug}',
        '/api/releases',
        '/api/artists',
        '/api/artists/{slug}',
        '/api/radio',
        '/api/islive',
        '/api/nowplaying',
        '/api/schedule',
        '/api/events',
        '/api/events/{slug}',
        '/api/support',
        '/api/timeshift',
      ]),
    );
  });
});
