import * as v from 'valibot';
import { residenceEntrySchema } from './content.mjs';
import { usableList } from './usable-list';

/*
 * The residences as the client reads them (GET /api/content/residences, docs/api.md, « Content »):
 * a module of its own, with no setting of the site's, so that the editor's preview (preview.ts)
 * checks what it is given with the same schema without bringing a singleton module into a part.
 */

export const residencesAnswer = usableList(v.object(residenceEntrySchema.entries));
/**
 * What a list of the residences shows (GET /api/content/residences?view=summary): no description, no
 * links, so that a page that lists them carries only what it shows (docs/api.md, « Content »). The
 * server sends these fields, and the client reads them with the entry's own checks.
 */
export const RESIDENCE_SUMMARY_FIELDS = ['id', 'artist', 'show', 'portrait'] as const;
/** One residence, by its id (GET /api/content/residences?id=): read as the list's entries are; null, none. */
export const residenceAnswer = v.nullable(v.object(residenceEntrySchema.entries));
/** A residence as a list shows it: the summary's fields only. */
export function residenceSummary<T extends Partial<Record<(typeof RESIDENCE_SUMMARY_FIELDS)[number], unknown>>>(
  entry: T,
): Pick<T, (typeof RESIDENCE_SUMMARY_FIELDS)[number]> {
  const summary: Partial<T> = {};
  for (const field of RESIDENCE_SUMMARY_FIELDS) if (entry[field] !== undefined) summary[field] = entry[field];
  return summary;
}
export const residenceSummariesAnswer = usableList(
  v.object(v.pick(residenceEntrySchema, RESIDENCE_SUMMARY_FIELDS).entries),
);
