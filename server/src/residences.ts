import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { workspaceRoot } from './config';

/**
 * The residences of the content file, read by one loader for the whole server (the API's demo feed
 * and catalogue, the residences' podcast feeds), checked against the content's own schema
 * (shared/content/residences.schema.json) once per version of the file. The pages read the same
 * file, checked by the same schema at build and test time.
 */
export interface ContentResidence {
  id: string;
  artist: string;
  show: string;
  description: string;
  styles: string[];
}

export interface ResidencesRead {
  residences: readonly ContentResidence[];
  /** What was wrong, in French: the file, or each entry left out (by its position). */
  problems: readonly string[];
}

let check: ReturnType<Ajv['compile']> | null = null;

/** One entry's check: the schema's `items`. */
function entryCheck(): ReturnType<Ajv['compile']> {
  if (check !== null) return check;
  const schema = JSON.parse(
    readFileSync(join(workspaceRoot, 'shared', 'content', 'residences.schema.json'), 'utf8'),
  ) as { items: object; definitions: object };
  check = new Ajv({ allErrors: false, strict: false }).compile({ ...schema.items, definitions: schema.definitions });
  return check;
}

const read = new Map<string, { version: string; value: ResidencesRead }>();

/** The file's residences; an entry the schema refuses is left out, and said so. */
export function readResidences(file: string): ResidencesRead {
  let version: string;
  try {
    const stat = statSync(file);
    version = `${String(stat.size)}:${String(stat.mtimeMs)}`;
  } catch {
    return { residences: [], problems: [`fichier des résidences introuvable (${file})`] };
  }
  const known = read.get(file);
  if (known?.version === version) return known.value;
  let value: ResidencesRead;
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(data)) throw new Error('une liste est attendue');
    const valid = entryCheck();
    const problems: string[] = [];
    const residences = data.flatMap((entry: unknown, index): ContentResidence[] => {
      if (valid(entry)) {
        const { id, artist, show, description, styles } = entry as ContentResidence;
        return [
          { id, artist: artist.trim(), show: show.trim(), description, styles: styles.filter((s) => s.trim() !== '') },
        ];
      }
      const error = valid.errors?.[0];
      problems.push(
        `résidence n° ${String(index + 1)} ignorée : ${error?.instancePath ?? ''} ${error?.message ?? ''}`.trim(),
      );
      return [];
    });
    value = { residences, problems };
  } catch (error) {
    value = {
      residences: [],
      problems: [
        `fichier des résidences illisible (${file}) : ${error instanceof Error ? error.message : String(error)}`,
      ],
    };
  }
  read.set(file, { version, value });
  return value;
}
