import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { checkedFields } from './tally';
import { DAY_PATTERN } from './paris';
import { writeWhole } from '../files/whole';

/**
 * The figures on disk (docs/figures.md, « What is kept »): one file a day, `YYYY/YYYY-MM-DD.json`,
 * holding that day's counts by field and nothing else, out of the content's versioned store. Files
 * older than KEPT_MONTHS are removed. A file is written whole to a temporary name, then renamed,
 * so that a reader never sees half of one.
 */

/** How long the figures are kept: 25 months (the CNIL's bound for audience measurement). */
export const KEPT_MONTHS = 25;
/** A day's file, at most (bytes): a larger one is not read. */
const FILE_MAX_BYTES = 8 * 1024 * 1024;

const fileSchema = v.object({
  day: v.pipe(v.string(), v.regex(DAY_PATTERN)),
  fields: v.record(v.string(), v.unknown()),
});

export interface FiguresFiles {
  read(day: string): Promise<Record<string, number>>;
  write(day: string, fields: Record<string, number>): Promise<void>;
  /** Removes the days before `KEPT_MONTHS` months before `today`; the days removed. */
  prune(today: string): Promise<string[]>;
  dir: string;
}

const pathOf = (dir: string, day: string) => join(dir, day.slice(0, 4), `${day}.json`);

export function figuresFiles(dir: string): FiguresFiles {
  return {
    dir,
    async read(day) {
      if (!DAY_PATTERN.test(day)) return {};
      try {
        const text = await readFile(pathOf(dir, day), 'utf8');
        if (text.length > FILE_MAX_BYTES) return {};
        const read = v.safeParse(fileSchema, JSON.parse(text));
        return read.success && read.output.day === day ? checkedFields(read.output.fields) : {};
      } catch {
        return {};
      }
    },
    async write(day, fields) {
      const path = pathOf(dir, day);
      await mkdir(join(dir, day.slice(0, 4)), { recursive: true });
      await writeWhole(path, JSON.stringify({ day, fields }));
    },
    async prune(today) {
      const [year, month] = today.split('-').map(Number) as [number, number];
      const first = new Date(Date.UTC(year, month - 1 - KEPT_MONTHS, 1)).toISOString().slice(0, 10);
      const removed: string[] = [];
      const years = await readdir(dir).catch(() => [] as string[]);
      for (const folder of years) {
        if (!/^\d{4}$/.test(folder)) continue;
        const files = await readdir(join(dir, folder)).catch(() => [] as string[]);
        for (const file of files) {
          const day = file.slice(0, 10);
          if (DAY_PATTERN.test(day) && day < first) {
            await rm(join(dir, folder, file), { force: true });
            removed.push(day);
          }
        }
        if (`${folder}-12-31` < first) await rm(join(dir, folder), { recursive: true, force: true });
      }
      return removed;
    },
  };
}
