import type { MouseEvent } from 'react';
import {
  api,
  emit,
  useAppDispatch,
  useNavigate,
  type PageRoute,
  type PlayedArtist,
  type PlayedArtistPlay,
  type RemoteContract,
} from '@collectif/shared';
import { PageLink, PAGES, isPlayedArtistSlug, usePageHref } from '@collectif/shared/addresses';
import { ExternalLink, cardDate } from '@collectif/shared/ui';
import { formatTime } from '@collectif/shared/time';
import { usePlayedArtistQuery } from '../artists/api';
import { QueueButton } from '../queue/QueueButton';
import { BySlugPending, useBySlug } from '../ui/bySlug';
import { playedArtistSummary } from '../pages/playedArtist';
import '../styles/played-artists.css';

function NotFound() {
  return (
    <div className="page played-artist-missing">
      <h1>Artiste introuvable</h1>
      <p>Aucun artiste de ce nom dans les titres joués ni au label.</p>
      <p>
        <PageLink className="button" page={PAGES.playedArtists}>
          Voir tous les artistes
        </PageLink>
      </p>
    </div>
  );
}

/** A click the browser would open elsewhere (a new tab, a window, a download) keeps its own way. */
const openedElsewhere = (event: MouseEvent<HTMLAnchorElement>) =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/** The plays in the answer's order (newest episode first), one group per episode. */
function byEpisode(plays: readonly PlayedArtistPlay[]): PlayedArtistPlay[][] {
  const groups: PlayedArtistPlay[][] = [];
  for (const play of plays) {
    const last = groups.at(-1);
    if (last?.[0]?.episode === play.episode) last.push(play);
    else groups.push([play]);
  }
  return groups;
}

/**
 * « Passages à l'antenne »: each episode that played the artist, and each play's time as a link to
 * the episode's page at that moment (`?t=`, which works without JavaScript); with it, the persistent
 * player plays the episode from there and the page stays where it is (docs/site.md, « Artists »).
 */
function Plays({ playedArtist }: { playedArtist: PlayedArtist }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const href = usePageHref();
  const playFrom = (event: MouseEvent<HTMLAnchorElement>, play: PlayedArtistPlay, to: string) => {
    if (openedElsewhere(event)) return;
    event.preventDefault();
    // The player needs the episode's audio, which only its own answer has.
    const query = dispatch(api.endpoints.episode.initiate(play.episode));
    void query
      .unwrap()
      .then(
        (episode) => {
          emit('replay-selected', { ...episode, start: play.start });
        },
        () => {
          void navigate(to);
        },
      )
      .finally(() => {
        query.unsubscribe();
      });
  };
  return (
    <section className="played-artist__plays" aria-labelledby="passages">
      <h2 id="passages">Passages à l’antenne</h2>
      {playedArtist.plays.length === 0 ? (
        <p>Pas encore joué à l’antenne.</p>
      ) : (
        <ol className="played-artist__episodes">
          {byEpisode(playedArtist.plays).map((plays) => {
            const [first] = plays;
            if (first === undefined) return null;
            const date = cardDate(first.date);
            return (
              <li key={first.episode} className="played-artist__episode">
                <h3>
                  <PageLink page={PAGES.episode} params={{ slug: first.episode }}>
                    {first.artist === '' ? first.episode : `${first.artist} · ${first.show}`}
                  </PageLink>
                </h3>
                {date === null ? null : <time dateTime={first.date}>{date}</time>}
                <ul className="played-artist__times">
                  {plays.map((play) => {
                    const time = formatTime(play.start);
                    const to = href(PAGES.episode, { slug: play.episode }, { t: String(play.start) });
                    return (
                      <li key={`${String(play.start)} ${play.title}`}>
                        {to === null ? (
                          <span className="played-artist__time">{time}</span>
                        ) : (
                          <a
                            className="played-artist__time"
                            href={to}
                            aria-label={`Écouter à partir de ${time} : ${play.title}`}
                            onClick={(event) => {
                              playFrom(event, play, to);
                            }}
                          >
                            {time}
                          </a>
                        )}
                        <span className="played-artist__title">{play.title}</span>
                        <QueueButton
                          className="queue-row"
                          items={[{ slug: play.episode, start: play.start }]}
                          name={`Ajouter à la file à partir de ${time} : ${play.title}`}
                        >
                          <span className="visually-hidden">Ajouter à la file</span>
                        </QueueButton>
                      </li>
                    );
                  })}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function Releases({ playedArtist }: { playedArtist: PlayedArtist }) {
  if (playedArtist.releases.length === 0) return null;
  return (
    <section className="played-artist__releases" aria-labelledby="sorties">
      <h2 id="sorties">Sorties sur le label</h2>
      <ul>
        {playedArtist.releases.map((release) => (
          <li key={release.href}>
            {release.image === undefined ? null : (
              <img src={release.image} alt="" width={72} height={72} loading="lazy" decoding="async" />
            )}
            <ExternalLink href={release.url}>{release.title}</ExternalLink>
          </li>
        ))}
      </ul>
      <p>
        <PageLink page={PAGES.label}>Toutes les sorties du label</PageLink>
      </p>
    </section>
  );
}

function PlayedArtistView({ playedArtist }: { playedArtist: PlayedArtist }) {
  const { residence } = playedArtist;
  return (
    <article className="played-artist">
      <h1>{playedArtist.name}</h1>
      <p className="played-artist__facts">{playedArtistSummary(playedArtist)}</p>
      {residence === undefined ? null : (
        <p className="played-artist__residence">
          Résidence :{' '}
          <PageLink page={PAGES.residence} params={{ id: residence.id }}>
            {`${residence.artist} · ${residence.show}`}
          </PageLink>
        </p>
      )}
      <p className="played-artist__actions">
        {/* Every play, each from its moment (docs/player.md, « The queue »). */}
        <QueueButton
          className="button"
          icon="all"
          afterHydration={false}
          items={playedArtist.plays.map((play) => ({ slug: play.episode, start: play.start }))}
          label={playedArtist.name}
        >
          Tout écouter
        </QueueButton>
      </p>
      <Plays playedArtist={playedArtist} />
      <Releases playedArtist={playedArtist} />
      <p className="all-episodes">
        <PageLink page={PAGES.playedArtists}>Tous les artistes</PageLink>
      </p>
    </article>
  );
}

/** artistes/:slug: an artist the radio played or the label releases, or a French « not found » page. */
function PlayedArtistPage() {
  const { query, missing } = useBySlug(isPlayedArtistSlug, usePlayedArtistQuery);
  if (missing) return <NotFound />;
  if (query.data === undefined) {
    return (
      <BySlugPending
        query={query}
        unavailable="Cette page d’artiste est momentanément indisponible."
        loading="Chargement de l’artiste ..."
      />
    );
  }
  return (
    <div className="page">
      <PlayedArtistView key={query.data.slug} playedArtist={query.data} />
    </div>
  );
}

export default PlayedArtistPage satisfies RemoteContract['radio']['PlayedArtistPage'];

/** Its data and head, read alike by the server and the browser. */
export { playedArtistPage as page } from '../pages/playedArtist';

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'artistes/:slug',
  title: 'Artiste',
  area: "La page de l'artiste",
  back: 'artistes',
};
