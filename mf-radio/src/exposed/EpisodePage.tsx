import { useState, useSyncExternalStore } from 'react';
import {
  emit,
  lastPayload,
  on,
  useEpisodeQuery,
  useEpisodesQuery,
  useSearchParams,
  type Episode,
  type EpisodeDetail,
  type PlayerSnapshot,
  type PageRoute,
  type RemoteContract,
} from '@collectif/shared';
import { pictureSrcSet } from '@collectif/shared/pictures';
import { configuratorSearchFor } from '../embed/configurator';
import { Tracklist } from '../episodes/Tracklist';
import { BySlugPending, useBySlug } from '../ui/bySlug';
import { EPISODE_COVER_SIZES } from '../pages/episode';
import { PodcastGrid, resumeLabel } from '../podcasts/PodcastCard';
import { QueueButton } from '../queue/QueueButton';
import { findResidence, useResidenceSummaries } from '../residences/residences';
import '../styles/episodes.css';
import { PageLink, PAGES, usePageHref, isSlug, parseStartTime, startTimeParam } from '@collectif/shared/addresses';
import { StatusMessage, cardDate } from '@collectif/shared/ui';
import { formatTime } from '@collectif/shared/time';
import { resumeKey, useRememberedPosition } from '@collectif/shared/resume';

/** Other episodes of the same residence shown under an episode. */
export const MORE_EPISODES = 4;

function NotFound() {
  return (
    <div className="page episode-missing">
      <h1>Émission introuvable</h1>
      <p>Cette émission n&apos;existe pas ou n&apos;est plus dans le flux.</p>
      <p>
        <PageLink className="button" page={PAGES.episodes}>
          Voir toutes les émissions
        </PageLink>
      </p>
    </div>
  );
}

const subscribePlayer = (notify: () => void) => on('player-state', notify);

/** The player's public state (undefined on the server and until the player has spoken). */
function usePlayerSnapshot(): PlayerSnapshot | undefined {
  return useSyncExternalStore(
    subscribePlayer,
    () => lastPayload('player-state'),
    () => undefined,
  );
}

/** « Partager »: the system's share sheet where there is one, else the link copied (docs/episodes.md). */
function useShare() {
  const [message, setMessage] = useState<{ text: string; url?: string } | null>(null);
  const share = async (url: string, title: string) => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // The visitor closed the sheet: nothing to say.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setMessage({ text: 'Lien copié dans le presse-papiers.' });
    } catch {
      setMessage({ text: 'Copiez ce lien :', url });
    }
  };
  return { message, share };
}

function EpisodeView({ episode }: { episode: EpisodeDetail }) {
  const [params] = useSearchParams();
  const start = parseStartTime(params.get('t'), episode.duration);
  const remembered = useRememberedPosition(episode);
  const player = usePlayerSnapshot();
  const { message, share } = useShare();
  const playingHere = player?.mode === 'REPLAY' && player.source === resumeKey(episode) && player.currentTime >= 1;
  // The player holds this episode, open (playing or paused): the tracklist marks the row it is at.
  const holdingHere = player?.mode === 'REPLAY' && player.open && player.source === resumeKey(episode);
  const { residences } = useResidenceSummaries();
  const residence = episode.residences.map((id) => findResidence(id, residences)).find((found) => found !== undefined);
  const date = cardDate(episode.pubDate);
  // Safe HTML: the server sanitised it when it read the feed (docs/rendering.md, « Safe HTML »).
  const description = episode.summary ?? '';
  const href = usePageHref();
  const address = (at?: number) => {
    const url = new URL(
      href(PAGES.episode, { slug: episode.slug }) ?? window.location.pathname,
      window.location.origin,
    );
    if (at !== undefined && at >= 1) url.searchParams.set('t', startTimeParam(at));
    return url.href;
  };
  // The player of this episode on a partner's site (docs/embed.md, « Intégrer le lecteur »).
  const embedSearch = configuratorSearchFor({ kind: 'episode', slug: episode.slug });
  const play = (from: number | null) => {
    emit('replay-selected', from === null ? episode : { ...episode, start: from });
  };
  return (
    <article className="episode">
      <img
        className="episode__cover"
        src={episode.cover}
        srcSet={pictureSrcSet(episode.cover)}
        sizes={EPISODE_COVER_SIZES}
        alt=""
        width={500}
        height={500}
        fetchPriority="high"
        decoding="async"
      />
      <div>
        <h1 className="episode__artist">{episode.artist}</h1>
        <p className="episode__show">{episode.show}</p>
        <p className="episode__facts">
          {date === null || episode.pubDate === null ? null : <time dateTime={episode.pubDate}>{date}</time>}
          {episode.duration > 0 ? <span>Durée : {formatTime(episode.duration)}</span> : null}
          {residence === undefined ? null : (
            <span>
              Résidence :{' '}
              <PageLink page={PAGES.residence} params={{ id: residence.id }}>
                {residence.artist}
              </PageLink>
            </span>
          )}
        </p>
        <div className="episode__actions">
          <button
            type="button"
            className="button"
            onClick={() => {
              play(start);
            }}
          >
            {start === null ? 'Écouter' : `Écouter à partir de ${formatTime(start)}`}
          </button>
          {remembered !== null && start === null ? (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                play(remembered);
              }}
            >
              {resumeLabel(remembered)}
            </button>
          ) : null}
          {/* At the address's moment when it names one (docs/player.md, « The queue »). */}
          <QueueButton
            afterHydration={false}
            items={[start === null ? { slug: episode.slug } : { slug: episode.slug, start }]}
          />
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void share(address(), `${episode.artist} · ${episode.show}`)}
          >
            Partager
          </button>
          {playingHere ? (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => void share(address(player.currentTime), `${episode.artist} · ${episode.show}`)}
            >
              Partager à partir de {formatTime(player.currentTime)}
            </button>
          ) : null}
          {embedSearch === null ? null : (
            <PageLink className="button button--ghost" page={PAGES.embed} search={embedSearch}>
              Intégrer
            </PageLink>
          )}
        </div>
        <div aria-live="polite">
          {message === null ? null : (
            <p className="episode__shared">
              {message.text}{' '}
              {message.url === undefined ? null : (
                <input
                  readOnly
                  value={message.url}
                  aria-label="Lien de l'émission"
                  onFocus={(event) => {
                    event.target.select();
                  }}
                />
              )}
            </p>
          )}
        </div>
        {description === '' ? null : (
          <p className="episode__description" dangerouslySetInnerHTML={{ __html: description }} />
        )}
        <Tracklist episode={episode} playingAt={holdingHere ? player.currentTime : null} />
      </div>
    </article>
  );
}

function MoreEpisodes({ episode }: { episode: Episode }) {
  const { residences } = useResidenceSummaries();
  const residence = episode.residences.map((id) => findResidence(id, residences)).find((found) => found !== undefined);
  const query = useEpisodesQuery(residence === undefined ? {} : { residence: residence.id }, {
    skip: residence === undefined,
  });
  if (residence === undefined) return null;
  const others = (query.data?.items ?? []).filter((other) => other.slug !== episode.slug).slice(0, MORE_EPISODES);
  return (
    <section className="episode__more" aria-labelledby="autres-emissions">
      <h2 id="autres-emissions">Autres émissions de {residence.artist}</h2>
      {others.length === 0 ? (
        query.isError ? (
          <StatusMessage kind="error" onRetry={() => void query.refetch()}>
            Les autres émissions sont momentanément indisponibles.
          </StatusMessage>
        ) : query.data === undefined ? (
          <StatusMessage kind="loading">Chargement des émissions ...</StatusMessage>
        ) : (
          <StatusMessage kind="empty">Pas d&apos;autre émission de cette résidence pour le moment.</StatusMessage>
        )
      ) : (
        <PodcastGrid items={others} label={`Autres émissions de ${residence.artist}`} />
      )}
      <p className="all-episodes">
        <PageLink page={PAGES.episodes} search={{ residence: residence.id }}>
          Toutes les émissions de {residence.artist}
        </PageLink>
      </p>
    </section>
  );
}

/** emissions/:slug: one episode, its player buttons and sharing, or a French « not found » page. */
function EpisodePage() {
  const { query, missing } = useBySlug(isSlug, useEpisodeQuery);
  const episode = query.data;
  if (missing) return <NotFound />;
  if (episode === undefined) {
    return (
      <BySlugPending
        query={query}
        unavailable="Cette émission est momentanément indisponible."
        loading="Chargement de l'émission ..."
      />
    );
  }
  return (
    <div className="page">
      <EpisodeView key={episode.slug} episode={episode} />
      <MoreEpisodes episode={episode} />
    </div>
  );
}

export default EpisodePage satisfies RemoteContract['radio']['EpisodePage'];

/** Its data and head, read alike by the server and the browser. */
export { episodePage as page } from '../pages/episode';

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'emissions/:slug',
  title: 'Émission',
  area: "La page de l'émission",
  back: 'emissions',
};
