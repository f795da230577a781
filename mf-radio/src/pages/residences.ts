// mf-radio's residences page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { residenceImages, siteConfig, type PageDefinition } from '@collectif/shared';
import { CARD_SIZES } from '../residences/ResidenceCard';
import { residences } from '../residences/residences';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

export const list: PageDefinition = {
  // The first card's image, with the attributes of its <img>: the page's largest paint.
  preloads: () => {
    const [first] = residences;
    if (first === undefined) return [];
    const images = residenceImages(first.id);
    return [{ href: images.card, imagesrcset: images.cardSrcSet, imagesizes: CARD_SIZES, fetchpriority: 'high' }];
  },
  head: ({ origin }) => {
    const [first] = residences;
    return {
      description: `Les ${String(residences.length)} émissions résidentes de ${siteConfig.name}, chaque mois sur la radio.`,
      ...(first === undefined
        ? {}
        : { image: { url: absolute(origin, residenceImages(first.id).card), alt: `${first.artist}, ${first.show}` } }),
    };
  },
};
