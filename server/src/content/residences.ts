import { contentProblems, residenceEntrySchema } from '@collectif/shared/content-schemas';
import * as v from 'valibot';
import { watchedFile, type WatchedFile } from '../files/watched-file';
import type { ContentStore } from './store';

/**
 * The residences of the content file, read by one loader for the whole server (the API's demo feed
 * and catalogue, the residences' podcast feeds), checked against the content's own schema
 * (shared/src/schemas/content.mjs) once per version of the file. The pages read the same
 * file, checked by the same schema at build and test time.
 */
export interface ContentResidence {
  id: string;
  artist: string;
  show: string;
  description: string;
  styles: string[];
  /** Uploaded pictures (docs/content.md, « Pictures »); without them, the ones named after its id. */
  portrait?: string;
  header?: string;
}

export interface ResidencesRead {
  residences: readonly ContentResidence[];
  /** What was wrong, in French: the file, or each entry left out (by its position). */
  problems: readonly string[];
}

/** What is said of a file that cannot be used. */
const unreadable = (file: string, reason: string): string => `fichier des résidences illisible (${file}) : ${reason}`;

/** The file's residences; never throws: a file that cannot be used is said so, with none. */
function parseResidences(text: string, file: string): ResidencesRead {
  try {
    const data: unknown = JSON.parse(text);
    if (!Array.isArray(data)) throw new Error('une liste est attendue');
    const problems: string[] = [];
    const residences = data.flatMap((entry: unknown, index): ContentResidence[] => {
      if (v.is(residenceEntrySchema, entry)) {
        const { id, artist, show, description, styles } = entry as ContentResidence;
        return [
          { id, artist: artist.trim(), show: show.trim(), description, styles: styles.filter((s) => s.trim() !== '') },
        ];
      }
      const [problem = ''] = contentProblems(residenceEntrySchema, entry, '');
      problems.push(`résidence n° ${String(index + 1)} ignorée : ${problem.replace(/^: /, '')}`.trim());
      return [];
    });
    return { residences, problems };
  } catch (error) {
    return { residences: [], problems: [unreadable(file, error instanceof Error ? error.message : String(error))] };
  }
}

/** Each file, read again when it changes (watched-file.ts). */
const files = new Map<string, WatchedFile<ResidencesRead>>();

/**
 * The file's residences; an entry the schema refuses is left out, and said so. A missing file, or
 * one that is not a list of residences, has none, and says so; a version that cannot be read (being
 * replaced, say) leaves the last one read in use (watched-file.ts).
 */
export function readResidences(file: string): ResidencesRead {
  let watched = files.get(file);
  if (watched === undefined) {
    watched = watchedFile(file, (text) => parseResidences(text, file));
    files.set(file, watched);
  }
  const value = watched();
  if (value !== null) return value;
  // Null: the file is missing, or could not be read (`parseResidences` itself never throws).
  const problem = watched.problem();
  return {
    residences: [],
    problems: [problem === null ? `fichier des résidences introuvable (${file})` : unreadable(file, problem)],
  };
}

/** Each version's residences as the server uses them, made once per version. */
const byVersion = new Map<string, readonly ContentResidence[]>();

/**
 * The residences volunteers edit, as the content store serves them now (docs/content.md), with
 * their version: the feeds, the sitemap and oEmbed read these, so a residence added or renamed in
 * the editor has its podcast feed and its player at once. The store's schema checked them.
 */
export function currentResidences(content: Pick<ContentStore, 'current'>): {
  version: string;
  residences: readonly ContentResidence[];
} {
  const { id, data } = content.current('residences');
  let residences = byVersion.get(id);
  if (residences === undefined) {
    residences = (data as ContentResidence[]).map(
      ({ id: key, artist, show, description, styles, portrait, header }) => ({
        id: key,
        artist: artist.trim(),
        show: show.trim(),
        description,
        styles: styles.filter((s) => s.trim() !== ''),
        ...(portrait === undefined ? {} : { portrait }),
        ...(header === undefined ? {} : { header }),
      }),
    );
    // One version at a time is enough: the previous one is not asked for again.
    byVersion.clear();
    byVersion.set(id, residences);
  }
  return { version: id, residences };
}
