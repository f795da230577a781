// @ts-check
// The pages a remote declares, read from its page modules (docs/parts.md, « Pages »): each exposed
// module that is a page exports its route as a literal,
//
//   export const route = { path: 'residences/:id', title: 'Résidence', area: '…', back: 'residences' };
//
// (or a list of them, for a module that serves several paths). The build writes them as
// `pages.json` beside the remote's manifest, where the site's server reads them at run time; the
// tests read them the same way. A literal, so that it is read without running the module (which
// needs React, the store and a browser): a route that is not one fails the build, naming the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from '@swc/core';
import { exposedFile } from '../parts.mjs';

/**
 * A plain value from a literal of the module's source.
 * @param {any} node
 * @param {string} where
 * @returns {unknown}
 */
function literal(node, where) {
  switch (node.type) {
    case 'TsSatisfiesExpression':
    case 'TsAsExpression':
    case 'TsConstAssertion':
    case 'ParenthesisExpression':
      return literal(node.expression, where);
    case 'StringLiteral':
    case 'BooleanLiteral':
      return node.value;
    case 'TemplateLiteral':
      if (node.expressions.length === 0)
        return node.quasis.map((/** @type {any} */ quasi) => quasi.cooked ?? quasi.raw).join('');
      break;
    case 'ArrayExpression':
      return node.elements.map((/** @type {any} */ element) => {
        if (element === null || element === undefined || element.spread) {
          throw new Error(`${where} : la route doit être un littéral (pas de trou ni de « ... »)`);
        }
        return literal(element.expression, where);
      });
    case 'ObjectExpression':
      return Object.fromEntries(
        node.properties.map((/** @type {any} */ property) => {
          const key = property.key;
          if (property.type !== 'KeyValueProperty' || (key.type !== 'Identifier' && key.type !== 'StringLiteral')) {
            throw new Error(`${where} : la route doit être un littéral (des clés « nom: 'texte' »)`);
          }
          return [key.value, literal(property.value, `${where}.${String(key.value)}`)];
        }),
      );
    default:
      break;
  }
  throw new Error(`${where} : la route doit être un littéral (du texte entre guillemets), pas ${String(node.type)}`);
}

/**
 * The route(s) a module's source exports as `route`, or none when it exports none (a module that
 * is not a page, such as the player).
 * @param {string} source
 * @param {string} file
 * @returns {Record<string, unknown>[]}
 */
export function routesOf(source, file) {
  const program = parseSync(source, { syntax: 'typescript', tsx: file.endsWith('.tsx') });
  for (const item of program.body) {
    if (item.type !== 'ExportDeclaration' || item.declaration.type !== 'VariableDeclaration') continue;
    for (const declarator of item.declaration.declarations) {
      if (declarator.id.type !== 'Identifier' || declarator.id.value !== 'route') continue;
      if (declarator.init === undefined || declarator.init === null) throw new Error(`${file} : route sans valeur`);
      const value = literal(declarator.init, `${file} : route`);
      const list = Array.isArray(value) ? value : [value];
      return list.map((entry) => {
        if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
          throw new Error(`${file} : une route est un objet { path, title, area, … }`);
        }
        return /** @type {Record<string, unknown>} */ (entry);
      });
    }
  }
  return [];
}

/**
 * A remote's declared pages, in the order of its exposed modules (the menu's order): each route
 * with the module it renders. The fields are checked where the table is read (shared/src/pages.ts).
 * @param {string} dir the remote's folder
 * @param {readonly string[]} exposes its exposed modules (shared/parts.mjs)
 * @returns {Record<string, unknown>[]}
 */
export function declaredRoutes(dir, exposes) {
  return exposes.flatMap((module) => {
    const file = join(dir, exposedFile(module));
    return routesOf(readFileSync(file, 'utf8'), file).map((route) => ({ ...route, module }));
  });
}

/**
 * The files the declared pages come from (watched by the dev server).
 * @param {string} dir
 * @param {readonly string[]} exposes
 */
export const routeFiles = (dir, exposes) => exposes.map((module) => join(dir, exposedFile(module)));
