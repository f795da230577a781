import { useEffect } from 'react';
import {
  api,
  startAppListening,
  twitchChannelUrl,
  useAppDispatch,
  useAppSelector,
  useRadioSettings,
} from '@collectif/shared';
import { refreshRequested, registerLiveListeners, selectLive, selectRefreshing } from './liveSlice';
import { RecentTracks } from './RecentTracks';
import { TwitchPlayer } from './TwitchPlayer';
import { ExternalLink } from '@collectif/shared/ui';

/**
 * How often the block asks /api/nowplaying again while the page is in front, so that « Titres
 * précédents » follows the radio (a track lasts a few minutes; the server keeps the answer 15 s by
 * default).
 */
export const NOW_PLAYING_POLL_MS = 60_000;

/**
 * 'Rafraîchir', or 'Chargement ...' with a spinner while a check runs. The button stays focusable
 * during the check (aria-disabled rather than disabled) so keyboard focus is not lost.
 */
function RefreshButton({ className = 'button' }: { className?: string }) {
  const dispatch = useAppDispatch();
  const refreshing = useAppSelector(selectRefreshing);
  return (
    <button
      type="button"
      className={className}
      aria-disabled={refreshing}
      onClick={() => {
        if (!refreshing) dispatch(refreshRequested());
      }}
    >
      {refreshing ? (
        <>
          <span className="spinner" aria-hidden="true" />
          Chargement ...
        </>
      ) : (
        'Rafraîchir'
      )}
    </button>
  );
}

/** Block 2 of the home page: the studio's live video, or an invitation to refresh (docs/site.md, « Home », live block). */
export function LiveBlock() {
  const dispatch = useAppDispatch();
  const live = useAppSelector(selectLive);
  const { twitchChannel } = useRadioSettings();
  // Asked in the browser (the server's HTML has it only if the page loaded it): until it arrives,
  // and when it fails or has no history, « Titres précédents » is not there.
  const { data: nowPlaying } = api.endpoints.nowPlaying.useQuery(undefined, {
    pollingInterval: NOW_PLAYING_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const recent = <RecentTracks history={nowPlaying?.history} />;

  useEffect(() => {
    registerLiveListeners(startAppListening);
    dispatch(refreshRequested());
  }, [dispatch]);

  if (live) {
    return (
      <section className="home-block live live--on" aria-labelledby="live-heading">
        <div className="live__bar">
          <h2 id="live-heading" className="live__heading">
            <span className="live__dot" aria-hidden="true" />
            Direct
          </h2>
          {/* Beyond the spec: without it a visitor could only leave the live view by reloading. */}
          <RefreshButton className="button button--ghost" />
        </div>
        <TwitchPlayer />
        {recent}
      </section>
    );
  }
  return (
    <section className="home-block live live--off" aria-labelledby="live-heading">
      <div className="live-panel">
        <h2 id="live-heading">Pas de direct au studio actuellement</h2>
        <p>Cliquez pour rafraîchir ou regarder les derniers directs en replay sur Twitch</p>
        <div className="live-panel__actions">
          <RefreshButton />
          <ExternalLink className="button button--ghost" href={twitchChannelUrl(twitchChannel)}>
            Regarder sur Twitch
          </ExternalLink>
        </div>
      </div>
      {recent}
    </section>
  );
}
