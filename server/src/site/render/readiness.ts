import { PARTS, type PageRef, type PartName } from '@collectif/shared';
import type { ServerContainers } from './containers';
import type { PartFileStatus } from './part-files';
import type { PoolStatus, RenderPool } from './render-pool';

/** What `/readyz` answers (docs/rendering.md, « Readiness »). */
export interface Readiness {
  /** `not-built`: no usable shell build, so no page can be answered (503). */
  status: 'ready' | 'not-built';
  /** SSR=off renders every page in the browser. */
  serverRendering: boolean;
  /** Each part's server container: in use, missing, refused (with why) or unreachable, and since when. */
  parts: Record<string, PartFileStatus>;
  /** The renderer processes (RENDERERS; none when pages render in the server's process). */
  renderers: PoolStatus;
}

export interface ReadinessSources {
  /** Whether the shell's build can be used now. */
  built: boolean;
  serverRendering: boolean;
  containers: Pick<ServerContainers, 'status' | 'versionOf'>;
  pool: Pick<RenderPool, 'problems' | 'status'>;
  /** Starts the trials of the parts in a version not tried yet (versions-in-use.ts, `createVersionsInUse`). */
  trials: (names: readonly PartName[], pages: readonly PageRef[]) => Map<PartName, unknown>;
  sitePages: () => Promise<{ pages: readonly PageRef[] }>;
}

/**
 * Whether the site can answer pages, and which parts render on the server (docs/rendering.md,
 * « Readiness »): for an admin and for a load balancer. A part's state is its file's, unless the
 * renderers found that version unusable; a new version not tried yet is tried now, even before any
 * page asks for it, and said `trying` meanwhile.
 */
export async function readinessOf({
  built,
  serverRendering,
  containers,
  pool,
  trials,
  sitePages,
}: ReadinessSources): Promise<Readiness> {
  const parts = await containers.status(PARTS.map((part) => part.name));
  // What the renderers found when evaluating (a server container that throws, or never ends).
  for (const [name, found] of pool.problems()) {
    if (parts[name]?.state === 'ok' && containers.versionOf(name) === found.version) parts[name] = found.status;
  }
  const { pages } = await sitePages();
  for (const name of trials(
    PARTS.map((part) => part.name),
    pages,
  ).keys()) {
    if (parts[name]?.state === 'ok') parts[name] = { state: 'trying', where: 'ce serveur' };
  }
  return {
    status: built ? 'ready' : 'not-built',
    serverRendering,
    parts,
    renderers: pool.status(),
  };
}
