import {
  readReleases,
  ExternalLink,
  releaseUrl,
  StatusMessage,
  useReleasesQuery,
  useReveal,
  type Release,
} from '@collectif/shared';
import { HOME_REVEAL_OFFSET_PX, revealClass } from './reveal';

/** The first 4 releases of the label (SPEC section 9). */
export const LATEST_RELEASES = 4;

/** Release artwork is square, 600 px at most in the grids. */
const COVER_SIZE = 600;

function ReleaseCard({ release }: { release: Release }) {
  return (
    <li className="release-tile">
      <ExternalLink className="release-tile__link" href={releaseUrl(release.href)}>
        <img
          className="release-tile__cover"
          src={release.image}
          alt=""
          width={COVER_SIZE}
          height={COVER_SIZE}
          loading="lazy"
          decoding="async"
        />
        <span className="release-tile__title">{release.title}</span>
        <span className="release-tile__artist">{release.artist}</span>
      </ExternalLink>
    </li>
  );
}

function Content() {
  const { data, isError, isLoading, refetch } = useReleasesQuery({ limit: LATEST_RELEASES });
  const releases = data === undefined ? undefined : readReleases(data);
  if (releases === null || (isError && releases === undefined)) {
    return (
      <StatusMessage kind="error" onRetry={() => void refetch()}>
        Les sorties du label sont momentanément indisponibles.
      </StatusMessage>
    );
  }
  if (isLoading || releases === undefined) {
    return <StatusMessage kind="loading">Chargement des sorties ...</StatusMessage>;
  }
  if (releases.length === 0) return <StatusMessage kind="empty">Aucune sortie pour le moment.</StatusMessage>;
  return (
    <ul className="grid" aria-label="Dernières sorties">
      {releases.slice(0, LATEST_RELEASES).map((release) => (
        <ReleaseCard key={release.href} release={release} />
      ))}
    </ul>
  );
}

export function ReleasesBlock() {
  const [ref, active] = useReveal<HTMLElement>(HOME_REVEAL_OFFSET_PX);
  return (
    <section ref={ref} className={revealClass('home-block', active)} aria-labelledby="dernieres-sorties">
      <h2 id="dernieres-sorties">Dernières sorties</h2>
      <Content />
    </section>
  );
}
