import type { FastifyTypeProvider } from 'fastify';
import { toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema, InferOutput } from 'valibot';

declare const shape: unique symbol;

/** A JSON Schema that remembers the type of the Valibot schema it was made from. */
export type JsonSchemaOf<T> = Record<string, unknown> & { readonly [shape]?: T };

/**
 * The JSON Schema of a Valibot schema, for Fastify: ajv validates requests with it (coercing query
 * strings to numbers, with the French messages of http/validation.ts) and fast-json-stringify
 * serialises answers with it. Checks JSON Schema cannot say (a transform, a custom check) are left
 * out: the server's own values are trusted, it is the client that reads answers defensively.
 */
export function jsonSchema<S extends GenericSchema>(schema: S): JsonSchemaOf<InferOutput<S>> {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, { errorMode: 'ignore' }) as Record<string, unknown>;
  if (Array.isArray(json.required) && json.required.length === 0) delete json.required;
  return json;
}

/** Routes take their request and answer types from the schemas made by `jsonSchema`, never by hand. */
export interface ValibotJsonTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends JsonSchemaOf<infer T> ? T : unknown;
  serializer: this['schema'] extends JsonSchemaOf<infer T> ? T : unknown;
}
