import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_KINDS, type ContentKind } from './kinds';

// Which version of each kind is current (docs/content.md, « Where content lives »): its `current`
// link, believed for a moment, and the last good version read. This is all a page asks of the
// content store; reading, checking and writing versions is `store.ts`.

/**
 * How long the store believes each kind's `current` link before reading it again. Every page asks
 * for every kind's current version (its version is in the page cache's key): reading the eight links
 * on each request was an eighth of a cached page's CPU. The store's own saves and adoptions switch
 * the link and are seen at once; a link moved by hand, or by another process on the same folder,
 * within this time (docs/content.md, « Where content lives »). The accounts, on no page, are read
 * each time.
 */
export const CONTENT_LINK_RECHECK_MS = 1000;

/** Each kind's current version, over the folder `dir` (one folder per kind). */
export interface CurrentVersions<V> {
  /** A kind's `current` link. */
  link: (kind: ContentKind) => string;
  /** The id the kind's link names, or null without one. */
  pointer: (kind: ContentKind) => string | null;
  /** The current version: the last good one read while the link names it, else `load`'s. */
  current: (kind: ContentKind) => V;
  /** The link was switched (or tried): read again on the next call. */
  forget: (kind: ContentKind) => void;
  /** A version the store made current (a save, an adoption). */
  isNow: (kind: ContentKind, version: V) => void;
}

/**
 * `load` reads the version the link names (`id`), or says what is current without one; `last` is the
 * last good version read of the kind. What it gives is the kind's last good version from then on.
 */
export function currentVersions<V extends { id: string }>(
  dir: string,
  load: (kind: ContentKind, id: string | null, last: V | undefined) => V,
): CurrentVersions<V> {
  const link = (kind: ContentKind) => join(dir, kind, 'current');
  /** The last good version read of each kind. */
  const good = new Map<ContentKind, V>();
  /** Each kind's link as last read, and when (a monotonic clock). */
  const links = new Map<ContentKind, { id: string | null; readAt: number }>();

  function pointer(kind: ContentKind): string | null {
    const known = links.get(kind);
    // A kind no page shows (the accounts) is in no page's key and is read far less often: its link
    // is read each time, so that an invitation or a revocation `npm run admin` made counts at once.
    const believed = CONTENT_KINDS[kind].visible && known !== undefined;
    if (believed && performance.now() - known.readAt < CONTENT_LINK_RECHECK_MS) return known.id;
    let id: string | null;
    try {
      id = readlinkSync(link(kind))
        .replace(/^versions\//, '')
        .replace(/\.json$/, '');
    } catch {
      id = null;
    }
    links.set(kind, { id, readAt: performance.now() });
    return id;
  }

  return {
    link,
    pointer,
    current: (kind) => {
      const id = pointer(kind);
      const last = good.get(kind);
      if (last !== undefined && (id === null || last.id === id)) return last;
      const version = load(kind, id, last);
      good.set(kind, version);
      return version;
    },
    forget: (kind) => {
      links.delete(kind);
    },
    isNow: (kind, version) => {
      good.set(kind, version);
    },
  };
}
