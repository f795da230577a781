import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app/app';
import { CONTENT_KIND_NAMES } from '../content/kinds';
import { readSiteServerConfig, workspaceRoot } from '../settings/config';
import { contentSchemas, RESIDENCE_SUMMARIES, type DescribedResponse } from './openapi/document';
import { operations, type DemoRequest } from './openapi/operations';
import { testConfig } from './testing/fixtures';

// The API described once (docs/api.md, « The description »): GET /api/openapi.json is a valid
// OpenAPI 3.1 document, checked by a validator made for OpenAPI; every public operation says in
// French what it does and what each answer is, with its caching; and the demo's real answers match
// the answers it describes, caching headers included. Built from the whole app, so that every public
// route is in it. That it holds no route the public cannot call: openapi-public.test.ts.

interface Operation {
  summary?: string;
  description?: string;
  responses?: Record<string, DescribedResponse>;
}
interface Description {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

const EXAMPLES = join(__dirname, 'openapi', 'examples.json');
/** Written anew from the demo's answers with UPDATE_DOCS=1. */
const update = process.env.UPDATE_DOCS === '1';

let dir: string;
let app: FastifyInstance;
let description: Description;
/** Every operation of the document, as `GET /api/episodes/{slug}`. */
let described: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  mkdirSync(join(dir, 'mf-player', 'dist-embed'), { recursive: true });
  const site = readSiteServerConfig({ DIST_ROOT: dir, ASSETS_DIR: join(dir, 'assets'), RENDERERS: '1' });
  app = await buildApp({ site, api: testConfig() });
  await app.ready();
  const answer = await app.inject({ url: '/api/openapi.json' });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  description = answer.json<Description>();
  described = Object.entries(description.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
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

const operationOf = (key: string): Operation => {
  const [method = '', path = ''] = key.split(' ');
  const found = description.paths[path]?.[method.toLowerCase()];
  if (found === undefined) throw new Error(`${key} : absente de la description`);
  return found;
};

/** A JSON answer's example kept short: each list to its first two items. */
function shortened(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(shortened);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, shortened(each)]));
  }
  return value;
}

/** The demo's names that an address needs: its first episode, event and show. */
async function demoNames(): Promise<Record<string, string>> {
  const episodes = (await app.inject({ url: '/api/episodes' })).json<{ items: { slug: string }[] }>();
  const events = (await app.inject({ url: '/api/events' })).json<{
    coming: { slug: string }[];
    past: { slug: string }[];
  }>();
  const schedule = (await app.inject({ url: '/api/schedule' })).json<{ events: { id: string }[] }>();
  const artist = (await app.inject({ url: '/api/artists/axonberg' })).json<{ plays: { episode: string }[] }>();
  const support = (await app.inject({ url: '/api/support' })).json<{
    membership: { tiers: { id: number }[] } | null;
  }>();
  return {
    'first-episode': episodes.items[0]?.slug ?? '',
    'episode-with-tracklist': artist.plays[0]?.episode ?? '',
    'first-tier': String(support.membership?.tiers[0]?.id ?? ''),
    'first-event': (events.coming[0] ?? events.past[0])?.slug ?? '',
    'first-show': encodeURIComponent(schedule.events[0]?.id ?? ''),
  };
}

/** A demo request's address or body with the demo's names put in. */
const filled = (text: string, names: Record<string, string>) =>
  text.replace(/\{([\w-]+)\}/g, (_, name: string) => names[name] ?? '');

/** Whether an answer's `Cache-Control` is the described one, its `max-age` at most the described. */
function sameCaching(said: string, sent: string | undefined): boolean {
  const directives = (text: string) => text.split(',').map((each) => each.trim().split('='));
  const [wanted, got] = [directives(said), directives(sent ?? '')];
  return (
    wanted.length === got.length &&
    wanted.every(([name, value], i) => {
      const [gotName, gotValue] = got[i] ?? [];
      if (name !== gotName) return false;
      return name === 'max-age' ? Number(gotValue) <= Number(value) && Number(gotValue) >= 0 : value === gotValue;
    })
  );
}

/** The demo's answer to an operation's request, as a visitor's browser sends it (XSRF for a write). */
async function ask(request: DemoRequest, url: string, names: Record<string, string>): Promise<LightMyRequestResponse> {
  // A browser that holds its XSRF cookie already (an answer that sets one is `private`).
  const options: InjectOptions = { url, method: request.method ?? 'GET', headers: { cookie: 'XSRF-TOKEN=jeton' } };
  if (request.method !== undefined) {
    options.headers = { ...options.headers, 'x-xsrf-token': 'jeton' };
    // A name alone in a field is put as its value: a number stays a number.
    const body = JSON.stringify(request.body).replace(/"\{([\w-]+)\}"/g, (_, name: string) => {
      const value = names[name] ?? '';
      return /^\d+$/.test(value) ? value : JSON.stringify(value);
    });
    options.payload = JSON.parse(body) as InjectOptions['payload'];
  }
  return app.inject(options);
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(description.openapi).toBe('3.1.0');
    expect(validated(description)).toEqual({ valid: true, version: '3.1', errors: null });
    // And the validator refuses what is not one (it can fail).
    expect(validated({ ...description, paths: { '/api/x': { get: { responses: 'aucune' } } } }).valid).toBe(false);
  });

  it('says for every operation, in French, what it does and what each answer is', () => {
    expect(described.filter((key) => !(key in operations))).toEqual([]);
    expect(Object.keys(operations).filter((key) => !described.includes(key))).toEqual([]);
    const faults: string[] = [];
    for (const key of described) {
      const { summary, responses = {} } = operationOf(key);
      if (summary === undefined || !/[a-zàâçéèêëîïôûù’]/i.test(summary)) faults.push(`${key} : pas de résumé`);
      for (const [status, response] of Object.entries(responses)) {
        if (response.description === '' || response.description === 'Default Response')
          faults.push(`${key} ${status} : réponse non décrite`);
      }
      const success = Object.keys(responses).filter((status) => status.startsWith('2'));
      if (success.length === 0) faults.push(`${key} : aucune réponse de succès`);
      // A success with a body says its shape.
      for (const status of success) {
        const content = responses[status]?.content;
        if (content !== undefined && Object.values(content).some((each) => each.schema === undefined))
          faults.push(`${key} ${status} : pas de schéma`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('gives the demo’s answers as examples, each matching its schema', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const names = await demoNames();
    const written: Record<string, unknown> = {};
    const faults: { key: string; errors: unknown }[] = [];
    for (const [key, operation] of Object.entries(operations)) {
      const { demo } = operation;
      if ('none' in demo) continue;
      const success = Object.entries(operationOf(key).responses ?? {}).find(([status]) => status.startsWith('2'));
      const content = success?.[1].content?.['application/json'];
      if (content === undefined) continue;
      if (key === 'GET /api/content/{kind}') {
        const byKind: Record<string, unknown> = {};
        for (const kind of [...CONTENT_KIND_NAMES, RESIDENCE_SUMMARIES]) {
          const answer = await app.inject({ url: `/api/content/${kind}` });
          byKind[kind] = shortened(answer.json());
        }
        written[key] = byKind;
        continue;
      }
      written[key] = shortened((await ask(demo, filled(demo.url, names), names)).json());
    }
    if (update) {
      // Written as the repository's format has it (Prettier, in its own process: it loads as an ES module).
      writeFileSync(EXAMPLES, JSON.stringify(written));
      const ran = spawnSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--write', EXAMPLES], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      if (ran.status !== 0) throw new Error(ran.stderr);
    }
    const kept = JSON.parse(readFileSync(EXAMPLES, 'utf8')) as Record<string, unknown>;
    // Every operation the demo answers in JSON has its example, and only those.
    expect(Object.keys(kept).sort()).toEqual(Object.keys(written).sort());
    const kinds = contentSchemas();
    for (const key of Object.keys(kept)) {
      const content = Object.entries(operationOf(key).responses ?? {}).find(([status]) => status.startsWith('2'))?.[1]
        .content?.['application/json'];
      if (key === 'GET /api/content/{kind}') {
        for (const [kind, example] of Object.entries(content?.examples ?? {})) {
          const check = ajv.compile(kinds[kind] as object);
          if (!check((example as { value: unknown }).value))
            faults.push({ key: `${key} ${kind}`, errors: check.errors });
        }
        expect(Object.keys(content?.examples ?? {}).sort()).toEqual(Object.keys(kinds).sort());
        continue;
      }
      const check = ajv.compile(content?.schema as object);
      if (!check(content?.example)) faults.push({ key, errors: check.errors });
    }
    expect(faults).toEqual([]);
  });

  it('describes the demo’s real answers: each public route’s answer matches its schema and its caching', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const names = await demoNames();
    const checked: string[] = [];
    const faults: { key: string; fault: unknown }[] = [];
    const kinds = contentSchemas();
    for (const [key, operation] of Object.entries(operations)) {
      const { demo } = operation;
      if ('none' in demo) continue;
      const responses = operationOf(key).responses ?? {};
      const urls =
        key === 'GET /api/content/{kind}'
          ? [...CONTENT_KIND_NAMES, RESIDENCE_SUMMARIES].map((kind) => ({ kind, url: `/api/content/${kind}` }))
          : [{ kind: null, url: filled(demo.url, names) }];
      for (const { kind, url } of urls) {
        const answer = await ask(demo, url, names);
        const response = responses[String(answer.statusCode)];
        if (response === undefined) {
          faults.push({
            key: url,
            fault: `répond ${String(answer.statusCode)}, non décrit : ${answer.body.slice(0, 200)}`,
          });
          continue;
        }
        const [type = '', described] = Object.entries(response.content ?? {})[0] ?? [];
        if (!String(answer.headers['content-type']).startsWith(type)) {
          faults.push({ key: url, fault: `décrite en ${type}, répond ${String(answer.headers['content-type'])}` });
          continue;
        }
        if (type === 'application/json') {
          const check = ajv.compile((kind === null ? described?.schema : kinds[kind]) as object);
          if (!check(answer.json())) faults.push({ key: url, fault: check.errors });
        }
        // Its caching, as described.
        const caching = operation.caching;
        if (caching !== undefined) {
          if (!sameCaching(caching.cacheControl, answer.headers['cache-control']))
            faults.push({ key: url, fault: `Cache-Control: ${String(answer.headers['cache-control'])}` });
          if ((answer.headers.etag !== undefined) !== caching.etag)
            faults.push({ key: url, fault: `ETag: ${String(answer.headers.etag)}` });
          if (caching.etag) {
            // 304 for the version it named, unless the answer changed meanwhile (the schedule's
            // week starts now: its ETag changes with the instant).
            const again = await app.inject({
              url,
              headers: { cookie: 'XSRF-TOKEN=jeton', 'if-none-match': String(answer.headers.etag) },
            });
            if (again.statusCode !== 304 && again.headers.etag === answer.headers.etag)
              faults.push({ key: url, fault: `If-None-Match: ${String(again.statusCode)}` });
          }
        }
      }
      checked.push(key);
    }
    expect(faults).toEqual([]);
    // The operations the demo cannot answer are only those that say why (operations.ts, `none`).
    expect(checked.length).toBeGreaterThanOrEqual(28);
  });
});
