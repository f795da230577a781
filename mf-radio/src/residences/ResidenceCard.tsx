import { Card, type Residence } from '@collectif/shared';
import { residenceImages } from './residences';

/** Card artwork is square, 400 px with an 800 px version for dense screens. */
const CARD_SIZE = 400;
/** Grid columns: 2, 3 from 800 px, 4 from 1200 px, inside the site's content width (75rem). */
const CARD_SIZES = '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw';

export function ResidenceCard({ residence, eager }: { residence: Residence; eager: boolean }) {
  const images = residenceImages(residence.id);
  return (
    <li className="residence-card">
      <Card
        image={{
          src: images.card,
          srcSet: images.cardSrcSet,
          sizes: CARD_SIZES,
          width: CARD_SIZE,
          height: CARD_SIZE,
          eager,
        }}
        title={residence.artist}
        description={residence.show}
        headingLevel={2}
        // Relative to the list's route, so the site can live under any base path.
        to={encodeURIComponent(residence.id)}
      />
    </li>
  );
}
