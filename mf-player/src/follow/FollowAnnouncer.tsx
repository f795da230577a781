import { useEffect, useRef, useState } from 'react';
import {
  api,
  apiUrl,
  Link,
  siteConfig,
  useAppDispatch,
  useAppSelector,
  useResidenceSummariesQuery,
  usePages,
  useScheduleQuery,
  type AppDispatch,
  type ResidenceSummary,
} from '@collectif/shared';
import { useFollowedIds } from '@collectif/shared/follow';
import { usePushChoices, type PushChoice } from '@collectif/shared/follow/prevenir';
import { upcomingRange, useScheduleClock } from '@collectif/shared/schedule';
import { nowPlayingOf } from '../player/listeners';
import { liveRequested, selectPlayer } from '../player/playerSlice';
import { cameOnAir, notSaidLately, onAirText, residencesOnAir } from './onAir';
import './follow-live.css';

/*
 * While the site is open, a followed residence going on air is said in the page, and by a system
 * notification when the visitor allowed them (docs/follow.md, « Going on air »). Loaded by the
 * player only when this browser follows a residence: a page of a visitor who follows none carries
 * none of this.
 */

/** Whether the player has its own now-playing channel open (open, in live mode: listeners.ts). */
const playerListening = (state: Parameters<typeof selectPlayer>[0]) => {
  const player = selectPlayer(state);
  return player.open && player.mode === 'LIVE';
};

/**
 * The site's now-playing channel (`/api/nowplaying/events`), while `open`: each message goes into
 * the `nowPlaying` answer every part reads, as the player's own channel does. The player's is used
 * instead when it is open, so that a tab holds one channel (the server allows a few per visitor).
 */
function useNowPlayingChannel(open: boolean, dispatch: AppDispatch): void {
  useEffect(() => {
    if (!open || typeof EventSource !== 'function') return undefined;
    const channel = new EventSource(apiUrl('/nowplaying/events'));
    channel.addEventListener('nowplaying', (event) => {
      const nowPlaying = nowPlayingOf(event);
      if (nowPlaying !== null) void dispatch(api.util.upsertQueryData('nowPlaying', undefined, nowPlaying));
    });
    return () => {
      channel.close();
    };
  }, [open, dispatch]);
}

/** The query a live notification's address carries (docs/follow.md, « Me prévenir »): `/?ecouter=direct`. */
export const LISTEN_PARAM = 'ecouter';

/**
 * A page opened by a live notification: the player opens on the live stream, and the query leaves
 * the address (replaced, so that Back or a reload does not ask again).
 */
function useListenFromAddress(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get(LISTEN_PARAM) !== 'direct') return;
    url.searchParams.delete(LISTEN_PARAM);
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    dispatch(liveRequested());
  }, [dispatch]);
}

/**
 * A system notification, when the visitor allowed them (asked only by « Me prévenir »): not for a
 * residence whose show starting the site's push notification says already.
 */
function notify(title: string, named: readonly ResidenceSummary[], pushed: readonly PushChoice[]): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const residences = named.filter((residence) => !pushed.some((choice) => choice.id === residence.id && choice.live));
  if (residences.length === 0) return;
  const options: NotificationOptions = {
    body: `${residences.map((residence) => residence.show).join(', ')} · ${siteConfig.name}`,
    tag: `suivi-${residences.map((residence) => residence.id).join('-')}`,
    lang: 'fr',
  };
  try {
    const notification = new Notification(title, options);
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
  } catch {
    // Chrome on Android shows notifications through a service worker only, when the site has one
    // (and a page that is not a secure context has no `serviceWorker`).
    if (!('serviceWorker' in navigator)) return;
    void navigator.serviceWorker
      .getRegistration()
      .then((registration) => registration?.showNotification(title, options))
      .catch(() => undefined);
  }
}

/** Says nothing, and asks nothing, for a stored list of no residence (one tampered with, say). */
export default function FollowAnnouncer() {
  useListenFromAddress();
  const followed = useFollowedIds();
  return followed.length === 0 ? null : <Announcer followed={followed} />;
}

function Announcer({ followed }: { followed: readonly string[] }) {
  const dispatch = useAppDispatch();
  const playerLive = useAppSelector(playerListening);
  const { data: nowPlaying } = api.endpoints.nowPlaying.useQuery(undefined);
  const { data: residences } = useResidenceSummariesQuery(undefined);
  const now = useScheduleClock(undefined);
  const schedule = useScheduleQuery(upcomingRange(now));
  // The first reading, once everything is there, is where the page starts from; the channel opens
  // after it, so that what it says next is compared with that.
  const ready =
    nowPlaying !== undefined && residences !== undefined && (schedule.data !== undefined || schedule.isError);
  useNowPlayingChannel(ready && !playerLive, dispatch);

  const pushed = usePushChoices();
  // About's address from the page table (not the addresses helper: its table of pages would be one
  // more chunk of the player, named in the entry every page loads).
  const aboutPath = usePages().find((entry) => entry.remote === 'about' && entry.module === 'AboutPage')?.path;
  const about = aboutPath === undefined ? null : `/${aboutPath}`;
  const seen = useRef<ReadonlySet<string> | null>(null);
  const saidAt = useRef(new Map<string, number>());
  // What was said last, and how many times something was: the same words said again are a new node.
  const [said, setSaid] = useState<{ text: string; count: number } | null>(null);
  const events = schedule.data?.events;
  // Once the visitor closes it or listens, the focus goes to the player rather than to the page's start.
  const focusPlayer = useRef(false);
  useEffect(() => {
    if (said !== null || !focusPlayer.current) return;
    focusPlayer.current = false;
    document.querySelector<HTMLElement>('.player button')?.focus();
  }, [said]);
  useEffect(() => {
    if (!ready) return;
    const onAir = residencesOnAir(nowPlaying, residences, events ?? [], now);
    const fresh = notSaidLately(cameOnAir(seen.current, onAir, followed), saidAt.current, Date.now());
    seen.current = onAir;
    const named = fresh.flatMap((id) => residences.find((residence) => residence.id === id) ?? []);
    if (named.length === 0) return;
    const text = onAirText(named.map((residence) => residence.artist));
    setSaid((before) => ({ text, count: (before?.count ?? 0) + 1 }));
    notify(text, named, pushed);
  }, [ready, nowPlaying, residences, events, now, followed, pushed]);

  // A polite live region, there (empty) before anything is said in it, so that screen readers hear
  // it; the buttons beside it, not in it.
  return (
    <div className={said === null ? 'follow-live' : 'follow-live follow-live--said'}>
      <p className="follow-live__text" role="status">
        {said === null ? null : (
          <span key={said.count}>
            <span className="follow-live__dot" aria-hidden="true" />
            {said.text}
          </span>
        )}
      </p>
      {said === null ? null : (
        <>
          {playerLive ? null : (
            <button
              type="button"
              className="follow-live__listen"
              onClick={() => {
                focusPlayer.current = true;
                dispatch(liveRequested());
                setSaid(null);
              }}
            >
              Écouter le direct
            </button>
          )}
          {pushed.length === 0 || about === null ? null : (
            // « Me prévenir » is on in this browser: what the server keeps for it (About, « Confidentialité »).
            <Link className="follow-live__about" to={`${about}#confidentialite`}>
              Ce que le site garde
            </Link>
          )}
          <button
            type="button"
            className="follow-live__close"
            aria-label="Fermer l’annonce"
            onClick={() => {
              focusPlayer.current = true;
              setSaid(null);
            }}
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="m6.4 5 5.6 5.6L17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4 6.4 5Z"
              />
            </svg>
          </button>
        </>
      )}
    </div>
  );
}
