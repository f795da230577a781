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
