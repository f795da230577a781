import { PAGE_IMAGE_SIZES } from '@collectif/shared/pictures';
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

/** A slide's image fills the content width (75rem) or the screen. */
export const SLIDE_SIZES = PAGE_IMAGE_SIZES;

/** Phones get the 800 px variant that the asset build makes beside each slide image. */
export const slideSrcSet = (path: string) => `${path.replace(/\.webp$/, '-800.webp')} 800w, ${path} 1600w`;
