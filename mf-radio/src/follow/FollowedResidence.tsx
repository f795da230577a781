import { lazy, Suspense, type ComponentType } from 'react';
import { usePodcastsQuery, type ResidenceSummary, type ScheduleEvent } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { residencePictures } from '@collectif/shared/pictures';
import { cardDate } from '@collectif/shared/ui';
import type { PushToggleProps } from '../push/PushToggle';
import { nextShowOf, OnAirUntil, showDate } from '../schedule/NextShow';

/** The schedule of the followed residences, as « Mes résidences » asked for it: loading, failed or there. */
export type FollowedSchedule = { events: readonly ScheduleEvent[] } | 'loading' | 'failed';

/** « Prochaine émission : mercredi 25 novembre à 20:00 », or on air now, as on the residence's page. */
function NextLine({ residence, schedule, now }: { residence: string; schedule: FollowedSchedule; now: number }) {
  if (schedule === 'loading') return <>Chargement du programme ...</>;
  if (schedule === 'failed') return <>Le programme est momentanément indisponible.</>;
  const next = nextShowOf(
    schedule.events.filter((event) => event.residence === residence),
    now,
  );
  if (next === null) return <>Pas d’émission annoncée pour le moment.</>;
  if (Date.parse(next.start) <= now) return <OnAirUntil end={next.end} />;
  return (
    <>
      Prochaine émission : <time dateTime={next.start}>{showDate(next)}</time>
    </>
  );
}

/** « Dernière émission : Synapses #11 · 4 nov. 2026 », its page linked: the newest podcast of the feed that names it. */
function LatestEpisode({ artist }: { artist: string }) {
  // The server searches the feed for each name of « A / B », newest first (as the residence's page does).
  const { data, isError } = usePodcastsQuery({ q: artist, limit: 1 });
  if (isError) return <>Les émissions sont momentanément indisponibles.</>;
  if (data === undefined) return <>Chargement des émissions ...</>;
  const [latest] = data;
  if (latest === undefined) return <>Pas encore d’émission dans le flux.</>;
  const date = cardDate(latest.pubDate);
  return (
    <>
      Dernière émission :{' '}
      {latest.slug === undefined ? (
        latest.show
      ) : (
        <PageLink page={PAGES.episode} params={{ slug: latest.slug }}>
          {latest.show}
        </PageLink>
      )}
      {date === null || latest.pubDate === null ? null : (
        <>
          {' · '}
          <time dateTime={latest.pubDate}>{date}</time>
        </>
      )}
    </>
  );
}

/**
 * « Me prévenir : <artist> »: the « prevenir » chunk, as beside « Suivre » (FollowButton.tsx says why
 * it is written twice). « Mes résidences » renders in the browser only.
 */
const PushToggle = lazy((): Promise<{ default: ComponentType<PushToggleProps> }> =>
  import(/* webpackChunkName: "prevenir" */ '../push/PushToggle').catch(() => ({ default: () => null })),
);

/** One followed residence: its picture, names, next show, latest episode, « Ne plus suivre » and « Me prévenir ». */
export function FollowedResidence({
  residence,
  schedule,
  now,
  onUnfollow,
}: {
  residence: ResidenceSummary;
  schedule: FollowedSchedule;
  now: number;
  onUnfollow: (residence: ResidenceSummary) => void;
}) {
  const pictures = residencePictures(residence);
  return (
    <li className="followed-item">
      <img
        className="followed-item__picture"
        src={pictures.card}
        srcSet={pictures.cardSrcSet}
        sizes="5rem"
        alt=""
        width={80}
        height={80}
        loading="lazy"
        decoding="async"
      />
      <div>
        <h3 className="followed-item__name">
          <PageLink page={PAGES.residence} params={{ id: residence.id }}>
            {residence.artist}
          </PageLink>
        </h3>
        <p className="followed-item__show">{residence.show}</p>
        <p className="followed-item__line">
          <NextLine residence={residence.id} schedule={schedule} now={now} />
        </p>
        <p className="followed-item__line">
          <LatestEpisode artist={residence.artist} />
        </p>
      </div>
      <div className="followed-item__actions">
        <button
          type="button"
          className="button button--ghost"
          aria-label={`Ne plus suivre ${residence.artist}`}
          onClick={() => {
            onUnfollow(residence);
          }}
        >
          Ne plus suivre
        </button>
        <Suspense fallback={null}>
          <PushToggle id={residence.id} artist={residence.artist} named />
        </Suspense>
      </div>
    </li>
  );
}
