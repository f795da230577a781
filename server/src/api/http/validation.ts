import type { FastifySchemaCompiler } from 'fastify';
import * as v from 'valibot';
import { ApiHttpError } from '../../http/errors';

/** The fields of an ajv error that a French message needs. */
interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * A French sentence for the first schema violation of a request (ajv speaks English), naming the
 * parameter, e.g. « Paramètre « limit » invalide : nombre entier de 1 à 500 attendu. »
 */
export function validationMessage(issues: readonly ValidationIssue[], context: string): string {
  const issue = issues[0] ?? {};
  const params = issue.params ?? {};
  const field =
    (typeof params.missingProperty === 'string' && params.missingProperty) ||
    (typeof params.additionalProperty === 'string' && params.additionalProperty) ||
    (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') ||
    context;
  const limit = typeof params.limit === 'number' ? String(params.limit) : '';
  const types: Record<string, string> = {
    integer: 'nombre entier',
    number: 'nombre',
    string: 'texte',
    boolean: 'booléen (true ou false)',
    object: 'objet',
  };
  const what: Record<string, string> = {
    required: 'valeur manquante',
    additionalProperties: 'paramètre inconnu',
    type: `${(typeof params.type === 'string' ? types[params.type] : undefined) ?? 'autre type'} attendu`,
    minimum: `valeur minimale ${limit}`,
    maximum: `valeur maximale ${limit}`,
    maxLength: `au plus ${limit} caractères`,
    minLength: `au moins ${limit} caractère(s)`,
  };
  const kind = what[issue.keyword ?? ''] ?? 'valeur refusée';
  return `Paramètre « ${field} » invalide (${context}) : ${kind}.`;
}

/**
 * A route's input (its body, or its query) read by its Valibot schema, the same schema its `schema`
 * describes for the OpenAPI description, before the handler: each refusal in the schema's own French
 * words, and `fallback` for a value of the wrong shape (Valibot's default words are English). Given as
 * the route's `validatorCompiler`, for what a visitor types or a payment service sends back, whose
 * fault the page says as it is (« Le don est d’au moins 1 € »): ajv's generic sentence names a
 * parameter, not the fault.
 */
export function frenchInput(schema: v.GenericSchema, fallback: string): FastifySchemaCompiler<unknown> {
  return () => (value: unknown) => {
    const read = v.safeParse(schema, value, { abortEarly: true });
    if (read.success) return { value: read.output };
    const message = read.issues[0].message;
    return { error: new ApiHttpError(400, 'bad_request', message.startsWith('Invalid') ? fallback : message) };
  };
}
