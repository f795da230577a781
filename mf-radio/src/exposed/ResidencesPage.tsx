import { useEffect } from 'react';
import { type PageRoute, type RemoteContract, siteConfig, type PageDefinition } from '@collectif/shared';
import { ResidenceCard, CARD_SIZES } from '../residences/ResidenceCard';
import { loadResidenceSummaries, selectResidenceSummaries, useResidenceSummaries } from '../residences/residences';
import { ResidencesStatus } from '../residences/ResidencesStatus';
import '../styles/residences.css';
import { scrollToTop } from '@collectif/shared/ui';
import { residencePictures } from '@collectif/shared/pictures';

/** Cards above the fold on a wide screen (one row of 4) load at once; the rest lazily. */
const EAGER_CARDS = 4;

/** The residents grid (docs/site.md, « Residents »). */
function ResidencesPage() {
  const { residences, status, retry } = useResidenceSummaries();
  useEffect(() => {
    scrollToTop();
  }, []);
  return (
    <div className="page">
      <h1>Résidences</h1>
      {status === 'ready' ? (
        <ul className="grid residence-grid" aria-label="Émissions résidentes">
          {residences.map((residence, index) => (
            <ResidenceCard
              key={residence.id}
              residence={residence}
              eager={index < EAGER_CARDS}
              priority={index === 0}
            />
          ))}
        </ul>
      ) : (
        <ResidencesStatus status={status} retry={retry} />
      )}
    </div>
  );
}

export default ResidencesPage satisfies RemoteContract['radio']['ResidencesPage'];

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The first card's image, with the attributes of its <img>: the page's largest paint.
  preloads: ({ state }) => {
    const [first] = selectResidenceSummaries(state);
    if (first === undefined) return [];
    const images = residencePictures(first);
    return [{ href: images.card, imagesrcset: images.cardSrcSet, imagesizes: CARD_SIZES, fetchpriority: 'high' }];
  },
  load: ({ dispatch }) => [loadResidenceSummaries(dispatch)],
  head: ({ origin, state }) => {
    const residences = selectResidenceSummaries(state);
    const [first] = residences;
    return {
      // Without the residences (their answer failed), the page table's own description.
      ...(residences.length === 0
        ? {}
        : {
            description: `Les ${String(residences.length)} émissions résidentes de ${siteConfig.name}, chaque mois sur la radio.`,
          }),
      ...(first === undefined
        ? {}
        : { image: { url: absolute(origin, residencePictures(first).card), alt: `${first.artist}, ${first.show}` } }),
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'residences',
  title: 'Résidences',
  area: 'La liste des résidences',
  menu: 'Résidences',
};
