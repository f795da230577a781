import { releaseUrl, useReleasesQuery } from '@collectif/shared';
import { gridSquare } from '@collectif/shared/pictures';
import { HOME_REVEAL_OFFSET_PX, revealClass } from './reveal';
import { answerStatus, Card, StatusMessage, useReveal } from '@collectif/shared/ui';

/** The first 4 releases of the label (docs/site.md, « Home »). */
export const LATEST_RELEASES = 4;

/** Release artwork is square, 600 px at most in the grids. */
const COVER_SIZE = 600;

function Content() {
  const query = useReleasesQuery({ limit: LATEST_RELEASES });
  const { data: releases, refetch } = query;
  const status = answerStatus(query);
  if (status === 'error') {
    return (
      <StatusMessage kind="error" onRetry={() => void refetch()}>
        Les sorties du label sont momentanément indisponibles.
      </StatusMessage>
    );
  }
  if (status === 'loading' || releases === undefined) {
    return <StatusMessage kind="loading">Chargement des sorties ...</StatusMessage>;
  }
  if (status === 'empty') return <StatusMessage kind="empty">Aucune sortie pour le moment.</StatusMessage>;
  return (
    <ul className="grid" aria-label="Dernières sorties">
      {releases.slice(0, LATEST_RELEASES).map((release) => (
        <li key={release.href}>
          <Card
            image={gridSquare(release.image, COVER_SIZE)}
            title={release.title}
            description={release.artist}
            url={releaseUrl(release.href)}
          />
        </li>
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
