import { ExternalLink, releaseUrl, useReveal, type Release } from '@collectif/shared';

/** Release artwork is square; the generated and the label's covers are 600 px wide. */
const COVER_SIZE = 600;

/** Reveal threshold on the Label page: 50 px above the viewport bottom (SPEC section 9). */
const REVEAL_OFFSET_PX = 50;

interface ReleaseCardProps {
  release: Release;
  /** Cards in the first row load at once; the rest wait until the visitor scrolls near them. */
  eager: boolean;
}

function CardLink({ release, eager }: ReleaseCardProps) {
  return (
    <ExternalLink className="release-card__link" href={releaseUrl(release.href)}>
      <img
        className="release-card__cover"
        src={release.image}
        alt=""
        width={COVER_SIZE}
        height={COVER_SIZE}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
      <h2 className="release-card__title">{release.title}</h2>
      <p className="release-card__artist">{release.artist}</p>
    </ExternalLink>
  );
}

export function ReleaseCard(props: ReleaseCardProps) {
  return (
    <li className="release-card">
      <CardLink {...props} />
    </li>
  );
}

/**
 * A card that fades in as it enters the viewport and out when it leaves (cards after the third).
 * The list item is observed and its content moves, so that the threshold is measured from where the
 * card sits, not from where the animation has shifted it.
 */
export function RevealingReleaseCard(props: ReleaseCardProps) {
  const [ref, active] = useReveal<HTMLLIElement>(REVEAL_OFFSET_PX);
  return (
    <li ref={ref} className="release-card">
      <div className={active ? 'release-card__reveal reveal active' : 'release-card__reveal reveal'}>
        <CardLink {...props} />
      </div>
    </li>
  );
}
