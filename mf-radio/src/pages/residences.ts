// mf-radio's residences page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { residenceImages, siteConfig, type PageDefinition } from '@collectif/shared';
import { residences } from '../residences/residences';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

export const list: PageDefinition = {
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
