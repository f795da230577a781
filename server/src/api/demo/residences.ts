import { readFileSync } from 'node:fs';

/** What the demo feed needs of a residence. */
export interface DemoResidence {
  id: string;
  artist: string;
  show: string;
  styles: string[];
  /** Picture drawn by the asset generator for residences of the content file. */
  cover?: string;
}

/** Used when shared/content/residences.json is missing or unreadable, so the demo still has shows. */
export const FALLBACK_RESIDENCES: DemoResidence[] = [
  { id: 'axonberg', artist: 'Axonberg', show: 'Synapses', styles: ['techno', 'electro'] },
  { id: '158cm', artist: '158cm', show: 'Petite Taille Gros Son', styles: ['uk garage', 'breakbeat'] },
  { id: 'kalibre-mona-vex', artist: 'Kalibre / Mona Vex', show: 'Double Détente', styles: ['jungle'] },
  { id: 'capitole-sound', artist: 'Capitole Sound', show: 'Dub & Steppers', styles: ['dub', 'steppers'] },
  { id: 'la-brume', artist: 'La Brume', show: 'Ambiances', styles: ['ambient', ''] },
];

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The residences of the content file (entries without id, artist or show are skipped). */
export function loadResidences(file: string): DemoResidence[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return FALLBACK_RESIDENCES;
  }
  if (!Array.isArray(data)) return FALLBACK_RESIDENCES;
  const residences = data.flatMap((entry: unknown): DemoResidence[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, artist, show, styles } = entry as Record<string, unknown>;
    if (!isText(id) || !isText(artist) || !isText(show)) return [];
    return [
      {
        id,
        artist: artist.trim(),
        show: show.trim(),
        styles: Array.isArray(styles) ? styles.filter(isText) : [],
        cover: `/assets/images/residences/${id}-400.webp`,
      },
    ];
  });
  return residences.length > 0 ? residences : FALLBACK_RESIDENCES;
}
