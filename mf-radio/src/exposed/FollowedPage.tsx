import { useEffect, useRef, useState } from 'react';
import {
  useScheduleQuery,
  useSearchParams,
  type PageDefinition,
  type PageRoute,
  type RemoteContract,
  type ResidenceSummary,
} from '@collectif/shared';
import {
  FOLLOW_MAX,
  FOLLOW_PARAM,
  followAll,
  readFollowParam,
  unfollow,
  useFollowedIds,
} from '@collectif/shared/follow';
import { findResidence, PageLink, PAGES } from '@collectif/shared/addresses';
import { dayOf, scheduleRange, useScheduleClock, useShown } from '@collectif/shared/schedule';
import { scrollToTop, StatusMessage } from '@collectif/shared/ui';
import { followProblem } from '../follow/toggle';
import { FollowedResidence, type FollowedSchedule } from '../follow/FollowedResidence';
import { FollowOffer } from '../follow/FollowOffer';
import { FollowAlerts, FollowCalendar, FollowLink } from '../follow/FollowTools';
import { useResidenceSummaries } from '../residences/residences';
import { ResidencesStatus } from '../residences/ResidencesStatus';
import { NEXT_SHOW_DAYS } from '../schedule/NextShow';
import '../styles/followed.css';

/** The residences a link offers (`?suivre=`) that the site knows and this browser does not follow yet. */
function offeredBy(search: string | null, residences: readonly ResidenceSummary[], followed: readonly string[]) {
  const offered: ResidenceSummary[] = [];
  for (const id of readFollowParam(search)) {
    const found = findResidence(id, residences);
    if (found !== undefined && !followed.includes(found.id) && !offered.includes(found)) offered.push(found);
  }
  return offered;
}

/** The list, once the page is shown: this browser's, never the server's (docs/follow.md). */
function Followed() {
  const ids = useFollowedIds();
  const [params, setParams] = useSearchParams();
  const { residences, status, retry } = useResidenceSummaries();
  const now = useScheduleClock(undefined);
  const schedule = useScheduleQuery(scheduleRange(dayOf(now), NEXT_SHOW_DAYS), { skip: ids.length === 0 });
  const [message, setMessage] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  if (status !== 'ready') return <ResidencesStatus status={status} retry={retry} />;

  const search = params.get(FOLLOW_PARAM);
  const offered = search === null ? null : offeredBy(search, residences, ids);
  // Newest first; an id the collective no longer has is not shown.
  const followed = [...ids].reverse().flatMap((id) => residences.find((residence) => residence.id === id) ?? []);
  const shows: FollowedSchedule =
    schedule.data !== undefined ? { events: schedule.data.events } : schedule.isError ? 'failed' : 'loading';
  const done = (text: string | null) => {
    setMessage(text);
    heading.current?.focus();
  };
  const closeOffer = (text: string | null) => {
    setParams(
      (current) => {
        current.delete(FOLLOW_PARAM);
        return current;
      },
      { replace: true },
    );
    done(text);
  };
  const accept = (list: readonly ResidenceSummary[]) => {
    const result = followAll(list.map((residence) => residence.id));
    const count = list.length;
    closeOffer(
      result === 'full'
        ? `Ces résidences dépasseraient ${String(FOLLOW_MAX)} résidences suivies, le maximum : retirez-en d’abord.`
        : (followProblem(result) ??
            (count === 1
              ? `${list[0]?.artist ?? ''} ajoutée à vos résidences.`
              : `${String(count)} résidences ajoutées.`)),
    );
  };
  const stop = (residence: ResidenceSummary) => {
    const result = unfollow(residence.id);
    // « Me prévenir » goes too (the « prevenir » chunk, here already).
    if (result === 'done') {
      void import(/* webpackChunkName: "prevenir" */ '../push/push')
        .then(({ choose }) => choose(residence.id, null))
        .catch(() => undefined);
    }
    done(followProblem(result) ?? `${residence.artist} n’est plus suivie.`);
  };

  return (
    <>
      {offered === null ? null : (
        <FollowOffer
          offered={offered}
          onAccept={() => {
            accept(offered);
          }}
          onDismiss={() => {
            closeOffer(null);
          }}
        />
      )}
      <h2 id="vos-residences" ref={heading} tabIndex={-1}>
        Vos résidences
      </h2>
      <p className="followed__message" role="status">
        {message}
      </p>
      {followed.length === 0 ? (
        <>
          <p>
            Vous ne suivez aucune résidence pour le moment : choisissez « Suivre » sur la page d’une résidence ou sur sa
            carte.
          </p>
          <p>
            <PageLink className="button" page={PAGES.residences}>
              Voir les résidences
            </PageLink>
          </p>
        </>
      ) : (
        <>
          <ul className="followed__list" aria-labelledby="vos-residences">
            {followed.map((residence) => (
              <FollowedResidence
                key={residence.id}
                residence={residence}
                schedule={shows}
                now={now}
                onUnfollow={stop}
              />
            ))}
          </ul>
          <FollowCalendar ids={followed.map((residence) => residence.id)} />
          <FollowAlerts />
          <FollowLink ids={followed.map((residence) => residence.id)} />
        </>
      )}
    </>
  );
}

/**
 * « Mes résidences » (docs/follow.md): the residences this browser follows, with their next show and
 * latest episode, the personal calendar and the shared link. The server writes its frame, the same
 * for every visitor; the list comes once the page is shown.
 */
function FollowedPage() {
  const shown = useShown();
  useEffect(() => {
    scrollToTop();
  }, []);
  return (
    <div className="page followed">
      <h1>Mes résidences</h1>
      <p className="followed__intro">
        Les résidences que vous suivez, leur prochaine émission et la dernière. Cette liste reste dans ce navigateur :
        pas de compte, rien n’est envoyé au site.
      </p>
      {shown ? <Followed /> : <StatusMessage kind="loading">Chargement de vos résidences ...</StatusMessage>}
    </div>
  );
}

export default FollowedPage satisfies RemoteContract['radio']['FollowedPage'];

/** Its head: one address whatever the link offers (and no data: the list is the browser's). */
export const page: PageDefinition = {
  head: ({ href }) => {
    const canonicalPath = href(PAGES.followed);
    return canonicalPath === null ? {} : { canonicalPath };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'mes-residences',
  title: 'Mes résidences',
  area: 'La page « Mes résidences »',
  menu: 'Mes résidences',
  noindex: true,
};
