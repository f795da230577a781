import * as v from 'valibot';
import type { SharedContent } from '../instances/shared-state';
import { sealer, type Sealer } from '../instances/seal';
import { ContentConflict, versionSchema, type ContentStore, type ContentVersion } from './store';

/** Where what goes wrong is said. */
export interface ContentLog {
  warn: (message: string) => void;
}

/** How many times a save is claimed again after another instance's save came first. */
const CLAIMS = 4;

/** The place content versions are signed for (a version of one kind is refused for another). */
const place = (kind: string) => `contenu:${kind}`;

/** A version as said through Redis: signed with SITE_SECRET for its kind. */
export function seal(seals: Sealer, version: ContentVersion): string {
  return seals.seal(place(version.kind), JSON.stringify(version));
}

/**
 * A version read from Redis, trusted no further than its signature: a value not signed with the
 * site's secret (written by whoever could reach Redis) is refused, then checked with its schema.
 */
export function unseal(seals: Sealer, sealed: string): ContentVersion {
  // Read to know its kind (the place it must be signed for), used only once its signature holds.
  const version = v.parse(versionSchema, JSON.parse(sealed.slice(sealed.indexOf('.') + 1)));
  if (seals.open(place(version.kind), sealed) === null) throw new Error('signature absente ou fausse (SITE_SECRET)');
  return version;
}

/**
 * The store of one instance, shared with the others through Redis (docs/content.md, « Several
 * instances »). A save is prepared here, then claimed in Redis against the version it follows (a
 * compare-and-set): when another instance saved first, its version is taken and the save is
 * prepared again from it (the conflict rule decides), so no write undoes another. The claimed
 * version is said to every instance, which takes it into its own folder; an instance that starts
 * takes every kind's current version. Each value is signed with SITE_SECRET and checked on the way
 * back. Redis away, a save is kept here and said to the log; the others take it at their next
 * start or the next save of that kind.
 */
export async function shareContent(
  store: ContentStore,
  shared: SharedContent,
  log: ContentLog,
  secret: string,
): Promise<ContentStore> {
  const seals = sealer(secret);
  /** Takes a version said through Redis; whether it could be read (signed, well-formed). */
  const take = (sealed: string): boolean => {
    try {
      store.adopt(unseal(seals, sealed));
      return true;
    } catch (error) {
      log.warn(`contenu partagé ignoré : ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };
  shared.listen(take);
  try {
    for (const sealed of await shared.current()) take(sealed);
  } catch (error) {
    log.warn(`contenu partagé illisible au démarrage : ${error instanceof Error ? error.message : String(error)}`);
  }

  const save: ContentStore['save'] = async (kind, data, options) => {
    // A current value in Redis that cannot be read (forged, or signed with another secret) is
    // replaced, compared as it was seen, rather than blocking every save of its kind.
    let replacing: string | undefined;
    for (let claim = 1; ; claim += 1) {
      const { version, follows } = store.prepare(kind, data, options);
      let before: string | null;
      try {
        before = await shared.claim(kind, { id: version.id, follows, value: seal(seals, version), replacing });
      } catch (error) {
        log.warn(
          `contenu ${kind} enregistré ici seulement (Redis injoignable : ${error instanceof Error ? error.message : String(error)})`,
        );
        return store.commit(version);
      }
      if (before === null) return store.commit(version);
      // Another instance saved first: its version is taken, and this save prepared again from it.
      replacing = take(before) ? undefined : before;
      if (claim >= CLAIMS) throw new ContentConflict(store.current(kind));
    }
  };
  return {
    ...store,
    save,
    restore: async (kind, id, by) => save(kind, store.version(kind, id).data, { by, restoredFrom: id }),
  };
}
