import slidesJson from '../../content/slides.json';

/** A carousel slide (content/slides.json, checked against slides.schema.json at build and test time). */
export interface Slide {
  imagePath: string;
  titre: string;
  description: string;
  /** External page the '+' button opens in a new tab. */
  link?: string;
}

export const slides: readonly Slide[] = slidesJson;
