import { PARTS, type PageRef, type PartName } from '@collectif/shared';
import { countedDeploy, createMetrics, type SiteMetrics } from '../metrics/metrics';
import type { DeploySettings } from '../settings/config';
import type { SharedDeploys, SharedLive } from '../instances/shared-state';
import type { TrialOutcome } from './trial';
import { ArchiveRefused } from './archive';
import {
  checkAddresses,
  checkContract,
  checkFiles,
  DeployRefused,
  pagesOf,
  readPartInfo,
  type PartInfo,
} from './checks';
import { createVersionStore, partDir, type VersionRecord, type VersionStore } from './versions';

/**
 * The teams' deploys (docs/deploy.md): a part's new version received, checked, tried off the
 * serving threads, then made live by one switch; rolled back the same way; said to every instance
 * through Redis. One deploy at a time on an instance: the trial thread is one.
 */

/**
 * How many archives of a part Redis keeps (docs/deploy.md, « Redis »): the live version's and the
 * two before it, which a rollback goes back to on an instance that lacks their folder. Each
 * archive is up to 50 MB: kept for every version of 30 days, they would fill Redis.
 */
export const ARCHIVES_KEPT = 3;

/** Redis's side of the deploys (instances/shared-state.ts). */
export type DeploysShared = SharedDeploys;

export interface DeploysOptions {
  settings: DeploySettings;
  /** Each part's dist/ as built or copied: its first version, to roll back to. */
  builtDirs: Record<PartName, string>;
  shared: DeploysShared | null;
  log: { info: (message: string) => void; warn: (message: string) => void };
  /** The trial of a version's server container and pages (the page responder's trial thread). */
  tryPart: (part: PartName, dir: string, pages: readonly PageRef[]) => Promise<TrialOutcome>;
  /** The site's pages now, for the table a remote's new pages would make. */
  sitePages: () => Promise<readonly PageRef[]>;
  /** Where deploys and rollbacks are counted (the app's metrics; a registry of their own otherwise). */
  metrics?: Pick<SiteMetrics, 'deploys'>;
}

/** What `GET /api/parts` says of a part (no secret). */
export interface PartStatus {
  name: PartName;
  live: {
    version: string;
    builtAt: string | null;
    commit: string | null;
    contract: string | null;
    liveSince: string;
    by: string;
  } | null;
  /** `deploy`: a version received through the endpoint; `build`: its dist/ as built or copied. */
  source: 'deploy' | 'build';
  lastRefusal: { at: string; reason: string; by: string } | null;
}

/** A deploy's outcome for the team: the version live, or why not and what to do. */
export type DeployOutcome =
  | { ok: true; version: string; message: string }
  | { ok: false; status: 409 | 422; error: string; message: string; advice?: string };

/** What the record of a version says of its build. */
function aboutOf(info: PartInfo | null, by: string, source: 'deploy' | 'build'): Record<string, string> {
  return {
    source,
    by,
    ...(info === null
      ? {}
      : { builtAt: info.builtAt, contract: info.contract, ...(info.commit === null ? {} : { commit: info.commit }) }),
  };
}

export function createDeploys({
  settings,
  builtDirs,
  shared,
  log,
  tryPart,
  sitePages,
  metrics = createMetrics().site,
}: DeploysOptions) {
  const stores = new Map<PartName, VersionStore>(
    PARTS.map(({ name }) => [name, createVersionStore({ dir: partDir(settings.root, name), keep: settings.keep })]),
  );
  const storeOf = (part: PartName): VersionStore => stores.get(part) as VersionStore;
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs deploys and rollbacks one after another. */
  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  // A part never deployed through the endpoint is served from its dist/: that is its first version.
  for (const { name } of PARTS) {
    storeOf(name).adopt(builtDirs[name], aboutOf(readPartInfo(builtDirs[name]), 'construction', 'build'));
  }

  /** The live version's build record of every part. */
  function liveInfos(): Partial<Record<PartName, PartInfo | null>> {
    return Object.fromEntries(PARTS.map(({ name }) => [name, readPartInfo(storeOf(name).liveDir)]));
  }

  function refuse(part: PartName, by: string, refused: DeployRefused | ArchiveRefused): DeployOutcome {
    const advice =
      refused instanceof DeployRefused ? refused.advice : 'construisez la partie et envoyez son dist/ tel quel';
    storeOf(part).refuse(`${refused.message} : ${advice}`, by);
    log.warn(`Déploiement de « ${part} » refusé (${by}) : ${refused.message}`);
    return { ok: false, status: 422, error: 'refused', message: refused.message, advice };
  }

  async function publish(part: PartName, record: VersionRecord, archive?: Uint8Array): Promise<void> {
    if (shared === null) return;
    try {
      await shared.publish({ part, id: record.id, receivedAt: record.receivedAt, about: record.about }, archive);
    } catch (error) {
      log.warn(
        `Redis injoignable : « ${part} » ${record.id} est en ligne sur cette instance seulement (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  /**
   * Drops from Redis the archives of a part's versions but the live one and the two before it
   * (`ARCHIVES_KEPT`), after each deploy: every version this instance knows of the part (its own
   * and those it followed), so that, deploy after deploy, Redis holds no more than those three.
   */
  async function forgetArchives(part: PartName): Promise<void> {
    if (shared === null) return;
    const store = storeOf(part);
    const kept = new Set(store.switches().slice(-ARCHIVES_KEPT));
    const stale = store
      .list()
      .map((record) => record.id)
      .filter((id) => id !== 'construit' && !kept.has(id));
    if (stale.length === 0) return;
    try {
      await shared.forget(part, stale);
    } catch (error) {
      log.warn(
        `Redis injoignable : les archives anciennes de « ${part} » y restent jusqu'au prochain déploiement (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  /** A version another instance made live: switched to here too, unpacked first from Redis if new. */
  async function follow(live: SharedLive): Promise<void> {
    const part = PARTS.find(({ name }) => name === live.part)?.name;
    if (part === undefined) return;
    const store = storeOf(part);
    if (store.live()?.id === live.id) return;
    if (!store.has(live.id)) {
      const archive = shared === null ? null : await shared.archive(part, live.id);
      if (archive === null) {
        log.warn(
          `Version ${live.id} de « ${part} » en ligne ailleurs, mais son archive manque dans Redis ou n’y est pas signée (SITE_SECRET)`,
        );
        return;
      }
      await store.add(archive, live.about, { id: live.id, receivedAt: live.receivedAt });
    }
    store.switchTo(live.id);
    log.info(`« ${part} » ${live.id} en ligne (décidé par une autre instance)`);
  }

  return {
    /** Each part's live folder: where the server serves and reads it from. */
    liveDirs: (): Record<PartName, string> =>
      Object.fromEntries(PARTS.map(({ name }) => [name, storeOf(name).liveDir])) as Record<PartName, string>,
    /** The folders of a part's kept versions, the live one first: an earlier version's files are still served. */
    servedDirs: (part: PartName): string[] => {
      const store = storeOf(part);
      const live = store.live()?.id;
      const earlier = store
        .list()
        .filter((record) => record.id !== live)
        .map((record) => store.dirOf(record.id))
        .reverse();
      return [store.liveDir, ...earlier];
    },

    /** Receives a part's archive: unpacked, checked, tried, then live; or refused and forgotten. */
    deploy(part: PartName, archive: Uint8Array, by: string): Promise<DeployOutcome> {
      return countedDeploy(
        metrics,
        'deploy',
        part,
        inTurn(async () => {
          const store = storeOf(part);
          let added: VersionRecord & { dir: string };
          try {
            added = await store.add(archive, { source: 'deploy', by });
          } catch (error) {
            if (error instanceof ArchiveRefused) return refuse(part, by, error);
            throw error;
          }
          try {
            const { info, pages } = checkFiles(part, added.dir);
            checkContract(info, { ...liveInfos(), [part]: undefined });
            const served = await sitePages();
            if (part !== 'shell') checkAddresses(part, pages, served);
            const table = [...served.filter((page) => page.remote !== part), ...pages];
            const trial = await tryPart(part, added.dir, part === 'shell' || part === 'player' ? served : table);
            if (!trial.ok)
              throw new DeployRefused(
                trial.reason,
                'corrigez la partie (ses tests sur le serveur), puis déployez-la de nouveau',
              );
            const record = { ...added, about: aboutOf(info, by, 'deploy') };
            store.describe(added.id, record.about);
            store.switchTo(added.id);
            log.info(
              `« ${part} » ${added.id} en ligne (${by}, contrat ${info.contract}, ${String(trial.pages)} page(s) essayée(s))`,
            );
            await publish(part, record, archive);
            await forgetArchives(part);
            return { ok: true, version: added.id, message: `« ${part} » est en ligne : version ${added.id}` };
          } catch (error) {
            store.discard(added.id);
            if (error instanceof DeployRefused) return refuse(part, by, error);
            throw error;
          }
        }),
      );
    },

    /** Makes the version live before this one live again. */
    rollback(part: PartName, by: string): Promise<DeployOutcome> {
      return countedDeploy(
        metrics,
        'rollback',
        part,
        inTurn(async () => {
          const store = storeOf(part);
          // The version before may claim an address another part has taken since: refused, as a
          // deploy of it would be (docs/parts.md, « Addresses »).
          const previous = store.previous();
          if (previous !== null && part !== 'shell') {
            try {
              checkAddresses(part, pagesOf(part, store.dirOf(previous)), await sitePages());
            } catch (error) {
              if (!(error instanceof DeployRefused)) throw error;
              return refuse(
                part,
                by,
                new DeployRefused(`retour à la version ${previous} refusé : ${error.message}`, error.advice),
              );
            }
          }
          const id = store.rollback();
          if (id === null) {
            return {
              ok: false,
              status: 409,
              error: 'no_previous',
              message: `« ${part} » n'a pas de version précédente à remettre en ligne`,
            };
          }
          log.info(`« ${part} » revenu à ${id} (${by})`);
          const record = store.live();
          if (record !== null) await publish(part, record);
          return { ok: true, version: id, message: `« ${part} » est revenu à la version ${id}` };
        }),
      );
    },

    /** Each part's live version and last refusal (`GET /api/parts`). */
    status(): PartStatus[] {
      return PARTS.map(({ name }) => {
        const store = storeOf(name);
        const record = store.live();
        const info = readPartInfo(store.liveDir);
        const refusal = store.refusal();
        return {
          name,
          source: record?.about.source === 'deploy' ? 'deploy' : 'build',
          live:
            record === null
              ? null
              : {
                  version: record.id,
                  builtAt: info?.builtAt ?? null,
                  commit: info?.commit ?? null,
                  contract: info?.contract ?? null,
                  liveSince: store.liveSince() ?? record.receivedAt,
                  by: record.about.by ?? 'construction',
                },
          lastRefusal: refusal,
        };
      });
    },

    /** Follows the versions the instances make live (REDIS_URL), starting from those live now. */
    async follow(): Promise<void> {
      if (shared === null) return;
      shared.listen((live) => {
        void inTurn(() => follow(live)).catch((error: unknown) => {
          log.warn(
            `Version de « ${live.part} » non suivie : ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      });
      try {
        for (const live of await shared.live()) await inTurn(() => follow(live));
      } catch (error) {
        log.warn(`Versions en ligne non lues dans Redis : ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

export type Deploys = ReturnType<typeof createDeploys>;
