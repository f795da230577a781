// @ts-check
// Content is data with a schema (docs/parts.md, « Content »): each content file of the repository is
// checked against its Valibot schema (shared/src/schemas/content.mjs), and the JSON Schema an editor
// reads beside it (`X.schema.json` for `X.json`) is written from the same schema. A volunteer who
// edits a file gets an error naming the field.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toJsonSchema } from '@valibot/to-json-schema';
import { CONTENT, contentProblems } from '../src/schemas/content.mjs';

/** The JSON Schema file of a content file. */
const schemaFile = (/** @type {string} */ file) => file.replace(/\.json$/, '.schema.json');

/**
 * Each content file and the JSON Schema written beside it, as absolute paths.
 * @param {string} root
 * @returns {{ schema: string, data: string }[]}
 */
export function contentFiles(root) {
  return CONTENT.map(({ file }) => ({ schema: join(root, schemaFile(file)), data: join(root, file) }));
}

/**
 * The JSON Schema of each content file, as written for editors (draft-07, checks JSON Schema cannot
 * say left out: a value written twice in a list).
 * @returns {{ file: string, text: string }[]}
 */
export function contentJsonSchemas() {
  return CONTENT.map(({ file, schema }) => ({
    file: schemaFile(file),
    text: `${JSON.stringify(toJsonSchema(schema, { errorMode: 'ignore' }), null, 2)}\n`,
  }));
}

/**
 * Writes the JSON Schema files from the schemas; returns those that changed.
 * @param {string} root
 */
export function writeContentSchemas(root) {
  const changed = [];
  for (const { file, text } of contentJsonSchemas()) {
    let current = '';
    try {
      current = readFileSync(join(root, file), 'utf8');
    } catch {
      // Written below.
    }
    if (current === text) continue;
    writeFileSync(join(root, file), text);
    changed.push(file);
  }
  return changed;
}

/**
 * Validates every content file of the workspace; returns the problems found, one French line each.
 * @param {string} root
 */
export function checkAllContent(root) {
  const problems = [];
  for (const { file, schema } of CONTENT) {
    let parsed;
    try {
      parsed = JSON.parse(readFileSync(join(root, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: JSON illisible : ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    problems.push(...contentProblems(schema, parsed, file));
  }
  return problems;
}
