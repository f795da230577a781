import { type ResidenceSummary } from '@collectif/shared';
import { GRID_IMAGE_SIZES, RESIDENCE_PICTURES, residencePictures } from '@collectif/shared/pictures';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { Card } from '@collectif/shared/ui';
import { FollowChip } from '../follow/FollowChip';

/** Grid columns: 2, 3 from 800 px, 4 from 1200 px, inside the site's content width (75rem). */
export const CARD_SIZES = GRID_IMAGE_SIZES;

export function ResidenceCard({
  residence,
  eager,
  priority = false,
}: {
  residence: ResidenceSummary;
  eager: boolean;
  /** The first card: the page's largest paint (pages/residences.ts announces it). */
  priority?: boolean;
}) {
  const images = residencePictures(residence);
  const to = usePageHref()(PAGES.residence, { id: residence.id });
  return (
    <li className="residence-card">
      <Card
        image={{
          src: images.card,
          srcSet: images.cardSrcSet,
          sizes: CARD_SIZES,
          width: RESIDENCE_PICTURES.card.width,
          height: RESIDENCE_PICTURES.card.height,
          eager,
          priority,
        }}
        title={residence.artist}
        description={residence.show}
        headingLevel={2}
        // Without a residence page in the table (a broken deploy), the card stays on the list.
        to={to ?? '.'}
      />
      <FollowChip id={residence.id} artist={residence.artist} />
    </li>
  );
}
