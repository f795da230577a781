import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { SLUG } from '@collectif/shared/content-schemas';
import { writeWhole } from '../files/whole';

/**
 * Each residence's choice under `LIVE_ARCHIVE=chosen` (docs/archive.md, « Who decides »): keep its
 * live shows or not, and publish them at once or after a volunteer's look. One file,
 * `choices.json` in LIVE_ARCHIVE_DIR, shared by the instances; a residence it does not name keeps
 * nothing.
 */

export const CHOICES_FILE = 'choices.json';
const MAX_CHOICES_BYTES = 256 * 1024;

const choiceSchema = v.strictObject({ keep: v.boolean(), publish: v.picklist(['now', 'review']) });
const fileSchema = v.strictObject({
  version: v.literal(1),
  residences: v.pipe(
    v.record(v.pipe(v.string(), v.maxLength(60), v.regex(SLUG)), choiceSchema),
    v.check((record) => Object.keys(record).length <= 2000, 'trop de résidences'),
  ),
});

export type ResidenceChoice = v.InferOutput<typeof choiceSchema>;
export type Choices = Record<string, ResidenceChoice>;

/** The choices kept; none when the file is missing or not one (said in `warn`). */
export async function readChoices(dir: string, warn?: (message: string) => void): Promise<Choices> {
  const path = join(dir, CHOICES_FILE);
  try {
    if ((await stat(path)).size > MAX_CHOICES_BYTES) throw new Error('trop grand');
    const read = v.safeParse(fileSchema, JSON.parse(await readFile(path, 'utf8')) as unknown);
    if (!read.success) throw new Error(read.issues[0].message);
    return read.output.residences;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      warn?.(`archives : ${CHOICES_FILE} ignoré (${error instanceof Error ? error.message : String(error)})`);
    }
    return {};
  }
}

export async function writeChoices(dir: string, residences: Choices): Promise<void> {
  await writeWhole(join(dir, CHOICES_FILE), JSON.stringify({ version: 1, residences }));
}
