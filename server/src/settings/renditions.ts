import * as v from 'valibot';
import { RENDITIONS, renditionSchema } from '@collectif/shared/content-schemas';
import type { Rendition } from '@collectif/shared/config';

/**
 * The radio's renditions, its mounts (docs/settings.md, « The radio »), as LIVE_RENDITIONS and
 * RADIO_CONFIG_FILE's `renditions` give them: checked against the shared schema, each refusal said
 * in one French line naming the rendition and its field.
 */

/** The longest LIVE_RENDITIONS read: eight renditions with long addresses fit well within it. */
export const RENDITIONS_TEXT_MAX = 32 * 1024;

/** What LIVE_RENDITIONS accepts, said in French. */
export const RENDITIONS_ACCEPTED = `une liste JSON d’au plus ${String(RENDITIONS.max)} renditions { "id", "label", "url", "bitrate", "codec": "mp3" }, la normale d’abord`;

const FIELDS = ['id', 'label', 'url', 'bitrate', 'codec'] as const;

/** What each field accepts, for the message of a refused one. */
const EXPECTED: Record<(typeof FIELDS)[number], string> = {
  id: `un nom de 1 à ${String(RENDITIONS.idMax)} lettres minuscules, chiffres ou tirets simples`,
  label: `un libellé de 1 à ${String(RENDITIONS.labelMax)} caractères, sans espace aux bords ni caractère de contrôle`,
  url: 'une adresse https:// ou un chemin du site commençant par / (pas //)',
  bitrate: `un débit entier en kb/s de ${String(RENDITIONS.bitrateMin)} à ${String(RENDITIONS.bitrateMax)}`,
  codec: '« mp3 »',
};

/** A value as the message shows it: short, on one line. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : ((JSON.stringify(value) as string | undefined) ?? 'undefined');
  const line = text.replace(/[\p{Cc}]/gu, ' ');
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

/** The first problem of `data` as a list of renditions, one French phrase; null when there is none. */
export function renditionsProblem(data: unknown): string | null {
  if (!Array.isArray(data)) {
    return 'une liste JSON [{ "id": …, "label": …, "url": …, "bitrate": …, "codec": "mp3" }, …] est attendue';
  }
  if (data.length === 0) return 'au moins une rendition est attendue, la normale';
  if (data.length > RENDITIONS.max) {
    return `au plus ${String(RENDITIONS.max)} renditions (${String(data.length)} données)`;
  }
  const ids = new Set<string>();
  for (const [index, entry] of (data as unknown[]).entries()) {
    const name = `rendition ${String(index + 1)}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return `${name} : un objet { "id", "label", "url", "bitrate", "codec" } est attendu`;
    }
    const record = entry as Record<string, unknown>;
    const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
    if (unknown !== undefined) {
      return `${name} : champ inconnu « ${shown(unknown)} » (attendus : ${FIELDS.join(', ')})`;
    }
    for (const field of FIELDS) {
      if (!v.safeParse(renditionSchema.entries[field], record[field]).success) {
        const value = record[field] === undefined ? 'absente' : `« ${shown(record[field])} »`;
        return `${name}, champ ${field} : valeur ${value} (attendu : ${EXPECTED[field]})`;
      }
    }
    const id = String(record.id);
    if (ids.has(id)) return `${name} : l’id « ${id} » est déjà celui d’une autre rendition`;
    ids.add(id);
  }
  return null;
}

/** `data` as renditions; throws an Error with the French phrase of its first problem. */
export function checkRenditions(data: unknown): Rendition[] {
  const problem = renditionsProblem(data);
  if (problem !== null) throw new Error(problem);
  return (data as Rendition[]).map(({ id, label, url, bitrate, codec }) => ({ id, label, url, bitrate, codec }));
}

/** LIVE_RENDITIONS's text, read: bounded, JSON, then checked. Throws an Error in French. */
export function readRenditionsText(text: string): Rendition[] {
  if (text.length > RENDITIONS_TEXT_MAX) {
    throw new Error(`texte trop long (${String(text.length)} caractères, au plus ${String(RENDITIONS_TEXT_MAX)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`JSON illisible (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  return checkRenditions(data);
}
