import type { PartName } from '@collectif/shared';
import type { PartFileStatus } from './part-files';
import type { VersionsSnapshot } from './protocol';

// Permits: which versions of the parts' server containers may run in a renderer that serves visitors
// (docs/rendering.md, « Which code runs »), held here and nowhere else.

/**
 * - trusted: there when the server started (the admin's build), or passed its trial
 *   (docs/deploy.md, « The trial »);
 * - on trial or not tried: not evaluated; its part's areas render in the browser meanwhile;
 * - disabled: its evaluation never ended in a serving renderer; not evaluated again (a new file
 *   makes a new version);
 * - refused: its trial, or its evaluation, failed (said by `/readyz`).
 * Each task carries a snapshot (`snapshot`), so that a renderer keeps none of this between tasks.
 */
export function createPermits({ anyVersion }: { anyVersion: boolean }) {
  const allowed = new Set<string>();
  const disabled = new Map<string, { part: PartName; version: string; status: PartFileStatus }>();
  const refused = new Map<PartName, { version: string; status: PartFileStatus }>();
  const key = (part: PartName, version: string) => `${part}@${version}`;
  const now = () => new Date().toISOString();
  return {
    trust: (part: PartName, version: string): void => {
      allowed.add(key(part, version));
    },
    allowed: (part: PartName, version: string): boolean => anyVersion || allowed.has(key(part, version)),
    disable: (part: PartName, version: string, where: string, reason: string): void => {
      disabled.set(key(part, version), { part, version, status: { state: 'refused', where, reason, since: now() } });
    },
    judged: (part: PartName, version: string, where: string, problem: string | null): void => {
      if (problem === null) refused.delete(part);
      else refused.set(part, { version, status: { state: 'refused', where, reason: problem, since: now() } });
    },
    snapshot: (): VersionsSnapshot => ({ disabled: [...disabled.keys()], allowed: anyVersion ? null : [...allowed] }),
    problems: (): Map<PartName, { version: string; status: PartFileStatus }> => {
      const found = new Map(refused);
      for (const { part, version, status } of disabled.values()) found.set(part, { version, status });
      return found;
    },
  };
}

export type Permits = ReturnType<typeof createPermits>;
