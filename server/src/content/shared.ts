import * as v from 'valibot';
import type { SharedContent } from '../instances/shared-state';
import { versionSchema, type ContentStore, type ContentVersion } from './store';

/** Where what goes wrong is said. */
export interface ContentLog {
  warn: (message: string) => void;
}

/**
 * The store of one instance, shared with the others through Redis (docs/content.md, « Several
 * instances »): each save is said to every instance, which takes it into its own folder; an
 * instance that starts takes every kind's current version. Redis away, a save is kept here and
 * said to the log; the others take it at their next start or the next save of that kind.
 */
export async function shareContent(store: ContentStore, shared: SharedContent, log: ContentLog): Promise<ContentStore> {
  const take = (text: string) => {
    try {
      store.adopt(v.parse(versionSchema, JSON.parse(text)));
    } catch (error) {
      log.warn(`contenu partagé ignoré : ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  shared.listen(take);
  try {
    for (const text of await shared.current()) take(text);
  } catch (error) {
    log.warn(`contenu partagé illisible au démarrage : ${error instanceof Error ? error.message : String(error)}`);
  }
  const said = async (version: ContentVersion) => {
    try {
      await shared.publish(version.kind, JSON.stringify(version));
    } catch (error) {
      log.warn(
        `contenu ${version.kind} enregistré ici seulement (Redis injoignable : ${error instanceof Error ? error.message : String(error)})`,
      );
    }
    return version;
  };
  return {
    ...store,
    save(kind, data, options) {
      const version = store.save(kind, data, options);
      void said(version);
      return version;
    },
    restore(kind, id, by) {
      const version = store.restore(kind, id, by);
      void said(version);
      return version;
    },
  };
}
