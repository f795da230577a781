import {
  readPodcasts,
  selectFeedLoaded,
  StatusMessage,
  useAppSelector,
  usePodcastsQuery,
  useReveal,
} from '@collectif/shared';
import { PodcastGrid } from '../podcasts/PodcastCard';

/** Reveal threshold on the residence detail: 0 px (SPEC section 9). */
const REVEAL_OFFSET_PX = 0;

function Content({ artist }: { artist: string }) {
  // The server searches the feed for each name of 'A / B' and de-duplicates by link.
  const { data, isError, refetch } = usePodcastsQuery({ q: artist });
  const feedLoaded = useAppSelector(selectFeedLoaded);
  const items = data === undefined ? undefined : readPodcasts(data);
  if (items === null || (isError && items === undefined)) {
    return (
      <StatusMessage kind="error" onRetry={() => void refetch()}>
        Les émissions sont momentanément indisponibles.
      </StatusMessage>
    );
  }
  // SPEC section 4: nothing is listed before the feed is reported loaded.
  if (!feedLoaded || items === undefined) {
    return <StatusMessage kind="loading">Chargement des émissions ...</StatusMessage>;
  }
  if (items.length === 0) {
    return <StatusMessage kind="empty">Aucune émission de cette résidence dans le flux pour le moment.</StatusMessage>;
  }
  return <PodcastGrid items={items} label={`Émissions de ${artist}`} />;
}

/** 'Dernières émissions': the resident's podcasts, each playable in the player. */
export function ResidencePodcasts({ artist }: { artist: string }) {
  const [ref, active] = useReveal<HTMLElement>(REVEAL_OFFSET_PX);
  return (
    <section
      ref={ref}
      className={active ? 'residence__podcasts reveal active' : 'residence__podcasts reveal'}
      aria-labelledby="dernieres-emissions"
    >
      <h2 id="dernieres-emissions">Dernières émissions</h2>
      <Content key={artist} artist={artist} />
    </section>
  );
}
