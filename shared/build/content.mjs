// @ts-check
// Content is data with a schema: every `X.schema.json` under a part's config/ or content/ folder
// validates its sibling `X.json`. A volunteer who edits a file gets an error naming the field.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { PACKAGES, PARTS } from '../parts.mjs';

/** Every workspace of the registry (shared/parts.mjs) may hold content. */
const FOLDERS_OF_PARTS = [...PARTS.map((part) => part.folder), ...PACKAGES];
const FOLDERS = ['config', 'content'];

/**
 * @param {string} root
 * @returns {{ schema: string, data: string }[]}
 */
export function contentFiles(root) {
  const pairs = [];
  for (const part of FOLDERS_OF_PARTS) {
    for (const folder of FOLDERS) {
      const dir = join(root, part, folder);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        if (!name.endsWith('.schema.json')) continue;
        pairs.push({ schema: join(dir, name), data: join(dir, name.replace('.schema.json', '.json')) });
      }
    }
  }
  return pairs;
}

/**
 * Validates `data` against `schema`; returns one French line per problem, each naming the field.
 * @param {object} schema
 * @param {unknown} data
 * @param {string} label
 */
export function validateContent(schema, data, label) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const check = ajv.compile(schema);
  if (check(data)) return [];
  return (check.errors ?? []).map((e) => {
    const field = e.instancePath || '(racine)';
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String(/** @type {{ additionalProperty?: string }} */ (e.params).additionalProperty)})`
        : e.keyword === 'required'
          ? ` (${String(/** @type {{ missingProperty?: string }} */ (e.params).missingProperty)})`
          : '';
    return `${label}: champ ${field} : ${e.message ?? 'invalide'}${extra}`;
  });
}

/**
 * Validates every content file of the workspace; returns the problems found.
 * @param {string} root
 */
export function checkAllContent(root) {
  const problems = [];
  for (const { schema, data } of contentFiles(root)) {
    const label = relative(root, data);
    let parsed;
    try {
      parsed = JSON.parse(readFileSync(data, 'utf8'));
    } catch (error) {
      problems.push(`${label}: JSON illisible : ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    problems.push(...validateContent(JSON.parse(readFileSync(schema, 'utf8')), parsed, label));
  }
  return problems;
}
