import { join } from 'node:path';
import type * as v from 'valibot';
import {
  aboutSchema,
  releasesContentSchema,
  residencesSchema,
  slidesSchema,
  teamSchema,
} from '@collectif/shared/content-schemas';
import { workspaceRoot } from '../config';

/**
 * The kinds of content volunteers edit (docs/content.md): each with its schema, the repository's
 * file that seeds it (the embedded default), and, for a list whose entries have an id, the field
 * that names an entry (a save of one entry conflicts only with another change of that entry).
 */
export const CONTENT_KINDS = {
  residences: { schema: residencesSchema, file: 'shared/content/residences.json', key: 'id' },
  releases: { schema: releasesContentSchema, file: 'server/content/releases.json', key: 'href' },
  team: { schema: teamSchema, file: 'mf-about/content/team.json', key: undefined },
  about: { schema: aboutSchema, file: 'mf-about/content/about.json', key: undefined },
  slides: { schema: slidesSchema, file: 'mf-radio/content/slides.json', key: undefined },
} satisfies Record<string, { schema: v.GenericSchema; file: string; key: string | undefined }>;

export type ContentKind = keyof typeof CONTENT_KINDS;

export const CONTENT_KIND_NAMES = Object.keys(CONTENT_KINDS) as ContentKind[];

export function isContentKind(name: string): name is ContentKind {
  return Object.hasOwn(CONTENT_KINDS, name);
}

/** The repository's files, by kind: what a new CONTENT_DIR starts from. */
export function repositorySeeds(root = workspaceRoot): Record<ContentKind, string> {
  return Object.fromEntries(CONTENT_KIND_NAMES.map((kind) => [kind, join(root, CONTENT_KINDS[kind].file)])) as Record<
    ContentKind,
    string
  >;
}
