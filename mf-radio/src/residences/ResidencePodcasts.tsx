import { selectFeedLoaded, useAppSelector, usePodcastsQuery } from '@collectif/shared';
import { PodcastGrid } from '../podcasts/PodcastCard';
import { QueueButton } from '../queue/QueueButton';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { answerStatus, StatusMessage, useReveal } from '@collectif/shared/ui';

/** The list fades in as soon as its top enters the screen (0 px). */
const REVEAL_OFFSET_PX = 0;

function Content({ artist }: { artist: string }) {
  // The server searches the feed for each name of 'A / B' and de-duplicates by link.
  const query = usePodcastsQuery({ q: artist });
  const { data: items, refetch } = query;
  const feedLoaded = useAppSelector(selectFeedLoaded);
  const status = answerStatus(query);
  if (status === 'error') {
    return (
      <StatusMessage kind="error" onRetry={() => void refetch()}>
        Les émissions sont momentanément indisponibles.
      </StatusMessage>
    );
  }
  // Nothing is listed before the feed is reported loaded (docs/site.md, « Residents »).
  if (!feedLoaded || status === 'loading' || items === undefined) {
    return <StatusMessage kind="loading">Chargement des émissions ...</StatusMessage>;
  }
  if (status === 'empty') {
    return <StatusMessage kind="empty">Aucune émission de cette résidence dans le flux pour le moment.</StatusMessage>;
  }
  // « Tout écouter »: every episode with a page, newest first as listed (docs/player.md, « The queue »).
  const all = items.flatMap((item) => (item.slug === undefined ? [] : [{ slug: item.slug }]));
  return (
    <>
      <p className="residence__listen-all">
        <QueueButton className="button" icon="all" afterHydration={false} items={all} label={artist}>
          Tout écouter
        </QueueButton>
      </p>
      <PodcastGrid items={items} label={`Émissions de ${artist}`} />
    </>
  );
}

/** 'Dernières émissions': the resident's podcasts, each playable in the player. */
export function ResidencePodcasts({ artist, residence }: { artist: string; residence: string }) {
  const [ref, active] = useReveal<HTMLElement>(REVEAL_OFFSET_PX);
  return (
    <section
      ref={ref}
      className={active ? 'residence__podcasts reveal active' : 'residence__podcasts reveal'}
      aria-labelledby="dernieres-emissions"
    >
      <h2 id="dernieres-emissions">Dernières émissions</h2>
      <Content key={artist} artist={artist} />
      <p className="all-episodes">
        <PageLink page={PAGES.episodes} search={{ residence }}>
          Toutes les émissions
        </PageLink>
      </p>
    </section>
  );
}
