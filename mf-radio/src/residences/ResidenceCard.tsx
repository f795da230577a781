import { Link, type Residence } from '@collectif/shared';
import { residenceImages } from './residences';

/** Card artwork is square, 400 px with an 800 px version for dense screens. */
const CARD_SIZE = 400;
/** Grid columns: 2, 3 from 800 px, 4 from 1200 px, inside a page at most 75rem wide. */
const CARD_SIZES = '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw';

export function ResidenceCard({ residence, eager }: { residence: Residence; eager: boolean }) {
  const images = residenceImages(residence.id);
  return (
    <li className="residence-card">
      {/* Relative to the list's route, so the site can live under any base path. */}
      <Link className="residence-card__link" to={encodeURIComponent(residence.id)}>
        <img
          className="residence-card__image"
          src={images.card}
          srcSet={images.cardSrcSet}
          sizes={CARD_SIZES}
          alt=""
          width={CARD_SIZE}
          height={CARD_SIZE}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
        />
        <h2 className="residence-card__artist">{residence.artist}</h2>
        <p className="residence-card__show">{residence.show}</p>
      </Link>
    </li>
  );
}
