import type { Residence } from '@collectif/shared';
import residencesJson from '@collectif/shared/content/residences.json';

/** The resident shows (shared/content/residences.json, schema-checked at build and test time). */
export const residences: readonly Residence[] = residencesJson;

/** Ids are matched exactly first (e.g. '130E0A'), then without case, so a retyped address still works. */
export function findResidence(id: string, list: readonly Residence[] = residences): Residence | undefined {
  return list.find((r) => r.id === id) ?? list.find((r) => r.id.toLowerCase() === id.toLowerCase());
}

/** Style tags worth showing: the content sometimes carries empty strings (and a tag once is enough). */
export function visibleStyles(styles: readonly string[]): string[] {
  return [...new Set(styles.map((s) => s.trim()).filter((s) => s !== ''))];
}
