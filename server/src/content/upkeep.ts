import { pruneVersions, type PruneRule } from './history';
import { CONTENT_KINDS, type ContentKind } from './kinds';
import type { Pictures } from './pictures';
import type { ContentStore } from './store';

/**
 * What keeps the content's folder and Redis within bounds (docs/content.md, « Pruning », « Several
 * instances » of « Pictures »): after each save of a kind, and every hour for every kind (the
 * accounts too, which every sign-in saves), its old versions are pruned, and the pictures its
 * current version names are kept in Redis for 30 days more. An instance that receives no save
 * still prunes the versions the others said to it, and renews the pictures they named.
 */
export interface ContentUpkeep {
  /** After a save of `kind` on this instance: its pruning and its pictures, in the background. */
  saved(kind: ContentKind): void;
  /** Every kind, now; what failed is logged, the rest done. */
  sweep(): Promise<void>;
  stop(): void;
}

export interface UpkeepOptions {
  content: ContentStore;
  pictures: Pictures;
  rule: Omit<PruneRule, 'now'>;
  log: { warn: (message: string) => void };
  /** How often every kind is swept (an hour); the first sweep a minute after the start. */
  everyMs?: number;
}

const KINDS = Object.keys(CONTENT_KINDS) as ContentKind[];

export function startUpkeep({ content, pictures, rule, log, everyMs = 3_600_000 }: UpkeepOptions): ContentUpkeep {
  const said = (what: string, error: unknown) => {
    log.warn(`${what} : ${error instanceof Error ? error.message : String(error)}`);
  };

  async function upkeep(kind: ContentKind): Promise<void> {
    let current;
    try {
      current = content.current(kind);
    } catch (error) {
      said(`contenu ${kind} : versions non élaguées`, error);
      return;
    }
    try {
      await pruneVersions(content.dir, kind, current, rule);
    } catch (error) {
      said(`contenu ${kind} : versions non élaguées`, error);
    }
    if (!CONTENT_KINDS[kind].visible) return;
    try {
      await pictures.keep(JSON.stringify(current.data));
    } catch (error) {
      said(`contenu ${kind} : images non renouvelées dans Redis`, error);
    }
  }

  const sweep = async () => {
    for (const kind of KINDS) await upkeep(kind);
  };
  const first = setTimeout(() => void sweep(), Math.min(60_000, everyMs));
  const every = setInterval(() => void sweep(), everyMs);
  first.unref();
  every.unref();
  return {
    saved(kind) {
      void upkeep(kind);
    },
    sweep,
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
