import { api, type RootState, type Slide } from '@collectif/shared';
import { PAGE_IMAGE_SIZES, pictureSrcSet } from '@collectif/shared/pictures';

/*
 * The home's carousel, read at run time from the site's content (GET /api/content/slides,
 * docs/content.md): the About team edits it, and the next page shows the change with no rebuild.
 */
export type { Slide };

/** The slides as loaded into a store; none while they are not. */
export const selectSlides = (state: RootState): readonly Slide[] =>
  api.endpoints.slides.select(undefined)(state).data ?? [];

/** A slide's image fills the content width (75rem) or the screen. */
export const SLIDE_SIZES = PAGE_IMAGE_SIZES;

/** Phones get the 800 px variant that the asset build makes beside each slide image. */
export const slideSrcSet = (path: string) =>
  // An uploaded slide (docs/content.md, « Pictures ») has its copy by its own name.
  pictureSrcSet(path) ?? `${path.replace(/\.webp$/, '-800.webp')} 800w, ${path} 1600w`;
