import { PARTS, type PageMatch, type PageRef, type PartName, type RemotesConfig } from '@collectif/shared';
import type { TrialTask } from '../../deploy/trial';
import { SERVER_CONTAINER, type ServerContainers } from './containers';
import { partFileSource } from './part-files';
import type { RenderPool } from './render-pool';

/**
 * Which versions of the parts' server containers the serving renderers may load (docs/deploy.md,
 * « The trial »; docs/rendering.md, « Readiness »): the ones on this server at start are the admin's,
 * trusted as they are; any later version of this server's files is tried first, once, in the
 * background, and a page that needs it waits a little for that trial. A container on another host is
 * not tried here.
 */

/** How long a page waits for the trial of a part's new server container before leaving its area to the browser. */
const TRIAL_WAIT_MS = 1500;

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** The parts a page's HTML is made of: the shell, the player, and the page's remote when a page matched. */
export function partsOfPage(match: PageMatch | null): PartName[] {
  return ['shell', 'player', ...(match === null ? [] : [match.page.remote])];
}

export interface VersionsInUseOptions {
  /** The parts' server containers on this server, read for their versions. */
  containers: Pick<ServerContainers, 'get' | 'versionOf'>;
  pool: Pick<RenderPool, 'allowed' | 'trust' | 'tryOnce'>;
  /** Where the server reads the parts' files (a remote in development from its dev server). */
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  /** What a trial of a part's container in `dir` needs besides the part (the site, the table). */
  trialTask: (part: PartName, dir: string, pages: readonly PageRef[]) => TrialTask;
}

/**
 * The versions in use: `trusted` settles once the versions there at start are trusted (a server container that
 * never finishes evaluating is still disabled at the deadline); `trials` starts the trials a set of
 * parts needs; `allUsable` says whether a page's parts may all be rendered on the server.
 */
export function createVersionsInUse({ containers, pool, remotes, distDirs, trialTask }: VersionsInUseOptions) {
  /** A part's container read from this server's files (the ones tried before use; docs/deploy.md). */
  const local = (name: PartName) => partFileSource(name, SERVER_CONTAINER, remotes, distDirs)?.file !== undefined;
  const trusted = Promise.all(
    PARTS.map(async ({ name }) => {
      await containers.get(name);
      const version = containers.versionOf(name);
      if (version !== undefined && local(name)) pool.trust(name, version);
    }),
  );
  /** Whether the serving renderers may load a part's container: none here, another host's, or allowed (tried, or trusted). */
  const usable = (name: PartName): boolean => {
    const version = containers.versionOf(name);
    return version === undefined || !local(name) || pool.allowed(name, version);
  };
  /**
   * The parts whose server container on this server is in a version not tried yet: each tried once, in the
   * background (the pool shares a trial with whoever asks); what each trial answers.
   */
  function trials(names: readonly PartName[], pages: readonly PageRef[]): Map<PartName, Promise<unknown>> {
    const pending = new Map<PartName, Promise<unknown>>();
    for (const name of names) {
      const version = containers.versionOf(name);
      if (version === undefined || usable(name)) continue;
      pending.set(
        name,
        pool.tryOnce(name, version, () => trialTask(name, distDirs[name], pages)),
      );
    }
    return pending;
  }
  /**
   * Whether a page's parts may all be rendered by the serving renderers: a part in a new version waits
   * for its trial a little (a good container's takes about a second); past that, its area renders in
   * the browser, and nobody keeps the page.
   */
  async function allUsable(names: readonly PartName[], pages: readonly PageRef[]): Promise<boolean> {
    const pending = trials(names, pages);
    if (pending.size === 0) return true;
    await Promise.race([Promise.all(pending.values()), wait(TRIAL_WAIT_MS)]);
    return names.every(usable);
  }
  return { trusted, trials, allUsable };
}

export type VersionsInUse = ReturnType<typeof createVersionsInUse>;
