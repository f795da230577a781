import { releaseUrl, type Release } from '@collectif/shared';
import { gridSquare } from '@collectif/shared/pictures';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { Card, useReveal } from '@collectif/shared/ui';

/** Release artwork is square; the generated and the label's covers are 600 px wide. */
const COVER_SIZE = 600;

/** Reveal threshold on the Label page: 50 px above the viewport bottom (docs/site.md, « Label »). */
const REVEAL_OFFSET_PX = 50;

interface ReleaseCardProps {
  release: Release;
  /** Cards in the first row load at once; the rest wait until the visitor scrolls near them. */
  eager: boolean;
  /** The first cover: the page's largest paint (the page definition in exposed/LabelPage.tsx announces it). */
  priority?: boolean;
}

/**
 * The card opens the release on the label's shop; under it, its artist's page on the site when the
 * played artists' index has one (docs/site.md, « Label »).
 */
function ReleaseCardBody({ release, eager, priority = false }: ReleaseCardProps) {
  return (
    <>
      <Card
        image={{ ...gridSquare(release.image, COVER_SIZE), eager, priority }}
        title={release.title}
        description={release.artist}
        headingLevel={2}
        url={releaseUrl(release.href)}
      />
      {release.artistSlug === undefined ? (
        // The line's room kept (a no-break space: the same line box as a name), so that every card of a row has the same height (docs/site.md, « Label »).
        <span className="release-card__artist" aria-hidden="true">
          {'\u00a0'}
        </span>
      ) : (
        <PageLink className="release-card__artist" page={PAGES.playedArtist} params={{ slug: release.artistSlug }}>
          {`Artiste : ${release.artist}`}
        </PageLink>
      )}
    </>
  );
}

export function ReleaseCard(props: ReleaseCardProps) {
  return (
    <li className="release-card">
      <ReleaseCardBody {...props} />
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
        <ReleaseCardBody {...props} />
      </div>
    </li>
  );
}
