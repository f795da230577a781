import { createHash } from 'node:crypto';
import { PARTS, type PartName } from '@collectif/shared';
import { ConfigError, custom, SECRET_MIN_LENGTH } from './kinds';

/**
 * The teams' deploy tokens (docs/deploy.md, « A team's tokens »): `DEPLOY_TOKENS` as `part:token`
 * pairs separated by commas (`radio:…,label:…`); one token may be given for several parts. A token
 * deploys only its parts.
 */

/** Each token's SHA-256, and the parts it may deploy. */
export type DeployTokens = ReadonlyMap<string, ReadonlySet<PartName>>;

const PART_NAMES = new Set<string>(PARTS.map((part) => part.name));
/** A deploy token's SHA-256: what is kept of it, and what a presented one is compared by. */
export const deployTokenKey = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The tokens of `DEPLOY_TOKENS`; a French ConfigError naming what is wrong, never the token. */
export function parseDeployTokens(text: string, variable = 'DEPLOY_TOKENS'): DeployTokens {
  const tokens = new Map<string, Set<PartName>>();
  for (const [index, pair] of text.split(',').entries()) {
    const position = `paire n° ${String(index + 1)}`;
    const colon = pair.indexOf(':');
    if (colon < 0) throw new ConfigError(variable, `${position} : « partie:jeton » attendu`);
    const part = pair.slice(0, colon).trim();
    const token = pair.slice(colon + 1).trim();
    if (!PART_NAMES.has(part)) {
      throw new ConfigError(variable, `${position} : partie inconnue « ${part} » (${[...PART_NAMES].join(', ')})`);
    }
    if (token.length < SECRET_MIN_LENGTH) {
      throw new ConfigError(variable, `${position} : jeton de moins de ${String(SECRET_MIN_LENGTH)} caractères`);
    }
    const key = deployTokenKey(token).toString('hex');
    const parts = tokens.get(key) ?? new Set<PartName>();
    parts.add(part as PartName);
    tokens.set(key, parts);
  }
  return tokens;
}

/** `DEPLOY_TOKENS`'s kind. */
export const deployTokens = custom(
  'des paires partie:jeton séparées par des virgules (jetons de 24 caractères ou plus)',
  (value) => parseDeployTokens(value),
);
