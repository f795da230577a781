import { timingSafeEqual } from 'node:crypto';
import type { PartName } from '@collectif/shared';
import { deployTokenKey, type DeployTokens } from '../settings/deploy-tokens';

// The teams' deploy tokens are read with the settings (`parseDeployTokens`, settings/deploy-tokens.ts); here, a
// presented token is checked against them (docs/deploy.md, « A team's tokens »).

/**
 * Whether a presented token may deploy a part: `unknown` (401) for a token that is none of them,
 * `other-part` (403) for another team's. Every configured token is compared, in constant time,
 * through their digests (of equal length whatever was presented).
 */
export function authorise(tokens: DeployTokens, presented: string, part: PartName): 'ok' | 'unknown' | 'other-part' {
  const parts = teamOf(tokens, presented);
  if (parts === null) return 'unknown';
  return parts.has(part) ? 'ok' : 'other-part';
}

/** The parts a presented token deploys (its team), or null for a token that is none of them. */
export function teamOf(tokens: DeployTokens, presented: string): ReadonlySet<PartName> | null {
  const given = deployTokenKey(presented);
  let parts: ReadonlySet<PartName> | null = null;
  for (const [key, allowed] of tokens) {
    if (timingSafeEqual(Buffer.from(key, 'hex'), given)) parts = allowed;
  }
  return parts;
}
