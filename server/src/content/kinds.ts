import { join } from 'node:path';
import type * as v from 'valibot';
import {
  aboutSchema,
  figuresContentSchema,
  artistMergesSchema,
  releasesContentSchema,
  residencesSchema,
  slidesSchema,
  supportContentSchema,
  teamSchema,
  tracklistsSchema,
} from '@collectif/shared/content-schemas';
import { workspaceRoot } from '../settings/config';
import { accountsSchema, NO_ACCOUNTS } from './accounts-schema';

interface KindRule {
  schema: v.GenericSchema;
  /** The repository's file that seeds it (the embedded default); none: it starts as `empty`. */
  file?: string;
  /** For a list whose entries have an id: the field that names an entry. */
  key?: string;
  empty?: unknown;
  /** Served to visitors (`GET /api/content/:kind`) and edited through `/api/content`. */
  visible: boolean;
}

/**
 * The kinds of content the store keeps (docs/content.md): each with its schema, its seed, and, for
 * a list whose entries have an id, the field that names an entry (a save of one entry conflicts
 * only with another change of that entry). The volunteers' accounts are kept the same way, never
 * served.
 */
export const CONTENT_KINDS: Record<
  | 'residences'
  | 'releases'
  | 'tracklists'
  | 'team'
  | 'about'
  | 'slides'
  | 'support'
  | 'artistMerges'
  | 'figures'
  | 'accounts',
  KindRule
> = {
  residences: { schema: residencesSchema, file: 'shared/content/residences.json', key: 'id', visible: true },
  releases: { schema: releasesContentSchema, file: 'server/content/releases.json', key: 'href', visible: true },
  // An episode's timed tracklist (docs/tracklists.md), named by the episode's slug.
  tracklists: { schema: tracklistsSchema, file: 'server/content/tracklists.json', key: 'episode', visible: true },
  team: { schema: teamSchema, file: 'mf-about/content/team.json', visible: true },
  about: { schema: aboutSchema, file: 'mf-about/content/about.json', visible: true },
  slides: { schema: slidesSchema, file: 'mf-radio/content/slides.json', visible: true },
  // HelloAsso on or off, and the year's membership goal (docs/support.md); no file: it starts on.
  support: { schema: supportContentSchema, empty: { helloasso: true }, visible: true },
  // The played artists' spellings an admin made one page (docs/artists.md, « Merges »); it starts empty.
  artistMerges: { schema: artistMergesSchema, empty: [], visible: true },
  // Whether the player says how many listen (docs/figures.md); no file: it starts off.
  figures: { schema: figuresContentSchema, empty: { showListeners: false }, visible: true },
  accounts: { schema: accountsSchema, empty: NO_ACCOUNTS, visible: false },
};

export type ContentKind = keyof typeof CONTENT_KINDS;

/** In place of an entry, for `withEntry`: the entry taken out. */
export const REMOVED = Symbol('retirée');

/**
 * A list kind's entries (`present`) with the one named `name` by the kind's key put in its place,
 * added at the end when it is new, or taken out when `entry` is REMOVED: a save of one residence or
 * one tracklist, made again on the current list each time it is prepared (store.ts, `rebase`).
 */
export function withEntry(kind: ContentKind, name: string, entry: unknown, present: unknown): unknown[] {
  const { key } = CONTENT_KINDS[kind];
  if (key === undefined) throw new Error(`${kind} : ses entrées n’ont pas de nom`);
  const list = present as Record<string, unknown>[];
  if (entry === REMOVED) return list.filter((one) => one[key] !== name);
  const at = list.findIndex((one) => one[key] === name);
  return at === -1 ? [...list, entry] : list.map((one, i) => (i === at ? entry : one));
}

/** The kinds visitors get and editors edit. */
export const CONTENT_KIND_NAMES = (Object.keys(CONTENT_KINDS) as ContentKind[]).filter(
  (kind) => CONTENT_KINDS[kind].visible,
);

export function isContentKind(name: string): name is ContentKind {
  return (CONTENT_KIND_NAMES as string[]).includes(name);
}

/** The repository's files, by kind: what a new CONTENT_DIR starts from. */
export function repositorySeeds(root = workspaceRoot): Partial<Record<ContentKind, string>> {
  const seeds: Partial<Record<ContentKind, string>> = {};
  for (const kind of CONTENT_KIND_NAMES) {
    const { file } = CONTENT_KINDS[kind];
    if (file !== undefined) seeds[kind] = join(root, file);
  }
  return seeds;
}

/** The repository's file of a kind that has one. */
export function seedFile(kind: ContentKind, root = workspaceRoot): string {
  const { file } = CONTENT_KINDS[kind];
  if (file === undefined) throw new Error(`${kind} : aucun fichier dans le dépôt`);
  return join(root, file);
}
