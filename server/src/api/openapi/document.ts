import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { apiErrorSchema, partsAnswerSchema, residenceSummariesAnswer } from '@collectif/shared/schemas';
import { CONTENT_KIND_NAMES, CONTENT_KINDS } from '../../content/kinds';
import { jsonSchema } from '../schemas/provider';
import { errorAnswers, NOT_MODIFIED, operations, type Answer, type Operation } from './operations';

/** An operation of the document, as @fastify/swagger writes it. */
export interface DescribedOperation {
  summary?: string;
  description?: string;
  responses?: Record<string, DescribedResponse>;
  [more: string]: unknown;
}
export interface DescribedResponse {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, unknown> }>;
}
export interface Document {
  paths?: Record<string, Record<string, DescribedOperation>>;
  [more: string]: unknown;
}

const JSON_TYPE = 'application/json';
const errorSchema = jsonSchema(apiErrorSchema);
/** The summary view of the residences, named as the schema of `GET /api/content/{kind}` names it. */
export const RESIDENCE_SUMMARIES = 'residences?view=summary';

/**
 * The shapes of `GET /api/content/{kind}`, one per kind, each titled with its kind (and the
 * residences' summary view): the same Valibot schemas the content store checks every version with.
 */
export function contentSchemas(): Record<string, unknown> {
  const byKind: Record<string, unknown> = {};
  for (const kind of CONTENT_KIND_NAMES) byKind[kind] = { title: kind, ...jsonSchema(CONTENT_KINDS[kind].schema) };
  byKind[RESIDENCE_SUMMARIES] = { title: RESIDENCE_SUMMARIES, ...jsonSchema(residenceSummariesAnswer) };
  return byKind;
}

/** The 200 schemas the routes do not write themselves (their answers are written as text). */
function answerSchema(key: string): unknown {
  switch (key) {
    case 'GET /api/content/{kind}':
      return { anyOf: Object.values(contentSchemas()) };
    case 'GET /api/parts':
      return jsonSchema(partsAnswerSchema);
    case 'GET /api/openapi.json':
      return { type: 'object', description: 'Un document OpenAPI 3.1.', required: ['openapi', 'paths'] };
    case 'GET /api/proposals/drafts/{id}':
      return { type: 'object', description: 'Les champs envoyés (`values`) et leurs refus (`fields`).' };
    case 'POST /api/proposals/delete':
      return jsonSchema(v.object({ deleted: v.literal(true) }));
    default:
      return undefined;
  }
}

/**
 * The demo's answers kept as examples, by operation (`examples.json` beside this file, written by
 * `UPDATE_DOCS=1 npx jest server/src/api/openapi.test.ts`).
 */
function demoExamples(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('./examples.json', import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** The caching headers of a success answer (docs/api.md, « Caching »). */
function cachingHeaders(operation: Operation): Record<string, unknown> {
  const { caching } = operation;
  if (caching === undefined) return {};
  return {
    'Cache-Control': {
      description: `\`${caching.cacheControl}\` tant que ses sources répondent ; une réponse d’erreur dit \`no-store\`.`,
      schema: { type: 'string', examples: [caching.cacheControl] },
    },
    ...(caching.etag
      ? {
          ETag: {
            description: 'Faible (`W/"…"`), une par version des données : à renvoyer dans `If-None-Match`.',
            schema: { type: 'string' },
          },
        }
      : {}),
  };
}

/** One success answer, its schema kept from the route's where it is JSON. */
function successAnswer(
  examples: Record<string, unknown>,
  key: string,
  status: string,
  said: string | Answer,
  operation: Operation,
  written: DescribedResponse | undefined,
): DescribedResponse {
  const answer: Answer = typeof said === 'string' ? { description: said } : said;
  const headers = status.startsWith('2') ? cachingHeaders(operation) : {};
  const described: DescribedResponse = {
    description: answer.description,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
  };
  if (answer.empty === true) return described;
  if (answer.type !== undefined) {
    return { ...described, content: { [answer.type]: { schema: { type: 'string' } } } };
  }
  const schema = written?.content?.[JSON_TYPE]?.schema ?? answerSchema(key);
  const example = examples[key];
  const exampleOf =
    key === 'GET /api/content/{kind}' && example !== undefined
      ? {
          examples: Object.fromEntries(
            Object.entries(example as Record<string, unknown>).map(([kind, value]) => [kind, { summary: kind, value }]),
          ),
        }
      : example === undefined
        ? {}
        : { example };
  return { ...described, content: { [JSON_TYPE]: { schema, ...exampleOf } } };
}

/**
 * The document @fastify/swagger made from the routes' schemas, with what an integrator reads beside
 * the shapes (operations.ts): each operation's French summary and description, a description of
 * every answer (never « Default Response »), the 200 schemas of the answers the routes write as
 * text, the caching headers and a 304 where there is an ETag, and the demo's answers as examples.
 */
export function describe(document: Document): Document {
  const examples = demoExamples();
  const paths: Record<string, Record<string, DescribedOperation>> = {};
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    paths[path] = {};
    for (const [method, written] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${path}`;
      const operation = operations[key];
      if (operation === undefined) {
        // Left as written: openapi.test.ts fails on an operation without its entry.
        paths[path][method] = written;
        continue;
      }
      const responses: Record<string, DescribedResponse> = {};
      for (const [status, said] of Object.entries(operation.answers)) {
        responses[status] = successAnswer(examples, key, status, said, operation, written.responses?.[status]);
      }
      if (operation.caching?.etag === true) responses['304'] = { description: NOT_MODIFIED };
      for (const [status, response] of Object.entries(written.responses ?? {})) {
        // An error the route declares (`4XX`, or one status such as 401), described by its class.
        const text = errorAnswers[`${status.charAt(0)}XX`];
        if (text !== undefined && !(status in responses)) responses[status] = { ...response, description: text };
      }
      // A request whose parameters or body are checked can be refused (400, in French).
      const takesInput = written.parameters !== undefined || written.requestBody !== undefined;
      if (takesInput && !Object.keys(responses).some((status) => status.startsWith('4'))) {
        responses['4XX'] = {
          description: errorAnswers['4XX'] ?? '',
          content: { [JSON_TYPE]: { schema: errorSchema } },
        };
      }
      paths[path][method] = {
        ...written,
        summary: operation.summary,
        ...(operation.description === undefined ? {} : { description: operation.description }),
        responses,
      };
    }
  }
  return { ...document, paths };
}
