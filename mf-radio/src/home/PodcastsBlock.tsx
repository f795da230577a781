import { usePodcastsQuery } from '@collectif/shared';
import { PodcastGrid } from '../podcasts/PodcastCard';
import { HOME_REVEAL_OFFSET_PX, revealClass } from './reveal';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { answerStatus, StatusMessage, useReveal } from '@collectif/shared/ui';

/** The 8 newest podcasts (docs/site.md, « Home »). */
export const LATEST_PODCASTS = 8;

function Content() {
  const query = usePodcastsQuery({ limit: LATEST_PODCASTS });
  const { data: items, refetch } = query;
  const status = answerStatus(query);
  if (status === 'error') {
    return (
      <StatusMessage kind="error" onRetry={() => void refetch()}>
        Les podcasts sont momentanément indisponibles.
      </StatusMessage>
    );
  }
  if (status === 'loading' || items === undefined) {
    return <StatusMessage kind="loading">Chargement des podcasts ...</StatusMessage>;
  }
  if (status === 'empty') return <StatusMessage kind="empty">Aucun podcast pour le moment.</StatusMessage>;
  return <PodcastGrid items={items} label="Derniers podcasts" />;
}

export function PodcastsBlock() {
  const [ref, active] = useReveal<HTMLElement>(HOME_REVEAL_OFFSET_PX);
  return (
    <section ref={ref} className={revealClass('home-block', active)} aria-labelledby="derniers-podcasts">
      <h2 id="derniers-podcasts">Derniers podcasts</h2>
      <Content />
      <p className="all-episodes">
        <PageLink page={PAGES.episodes}>Toutes les émissions</PageLink>
      </p>
    </section>
  );
}
