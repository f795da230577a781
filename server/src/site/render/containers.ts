import { loadContainer } from './federation';
import { createPartFiles, type PartFiles, type PartFilesOptions } from './part-files';

/**
 * The parts' server containers (docs/rendering.md, « Server containers »): `dist/server/remoteEntry.js`
 * of each part, read where the remote map says the part lives, loaded by the federation runtime as
 * the browser loads a remote, with the renderer's own React and shared package as the share scope's
 * singletons (one copy of each, as in a page), and loaded again when it changes, so that a part
 * redeployed alone renders on the next request, with no restart.
 *
 * A container is not loaded through Node's module system: Node never forgets a module it has loaded,
 * while an old version here is dropped once replaced. A part whose container is missing, fails to
 * load or cannot be fetched in time renders in the browser instead. Each part's file is read by
 * part-files.ts, and loaded by the federation runtime of federation.ts.
 */

/** Where a part's server container sits in its dist/ (shared/build/webpack.mjs). */
export const SERVER_CONTAINER = 'server/remoteEntry.js';

export type ServerContainersOptions = Omit<PartFilesOptions<Record<string, unknown>>, 'path' | 'read' | 'what'>;

/** The parts' server containers; a part without a usable one renders in the browser. */
export function createServerContainers(options: ServerContainersOptions) {
  return createPartFiles({
    ...options,
    path: SERVER_CONTAINER,
    read: (code, where, name) => loadContainer(code, where, name),
    what: 'Conteneur serveur',
  });
}

export type ServerContainers = PartFiles<Record<string, unknown>>;
