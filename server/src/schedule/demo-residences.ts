import { readResidences } from '../content/residences';

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

/** The residences of the content file (server/src/content/residences.ts), or a few shows when it has none. */
export function loadResidences(file: string): DemoResidence[] {
  const { residences } = readResidences(file);
  if (residences.length === 0) return FALLBACK_RESIDENCES;
  return residences.map(({ id, artist, show, styles }) => ({
    id,
    artist,
    show,
    styles,
    cover: `/assets/images/residences/${id}-400.webp`,
  }));
}
