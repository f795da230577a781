import { useEffect, useId, useRef, useState } from 'react';
import { twitchChannelUrl, useRadioSettings } from '@collectif/shared';
import { loadTwitch, type TwitchEmbed } from './twitch';
import { ExternalLink, StatusMessage } from '@collectif/shared/ui';

type PlayerState = 'loading' | 'ready' | 'unavailable';

/**
 * The Twitch player for the collective's channel, at full width. It exists only while the studio
 * is live: unmounting it destroys the embed. When the script cannot load, the channel link stands in.
 */
export function TwitchPlayer() {
  const rawId = useId();
  const elementId = `twitch-${rawId.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PlayerState>('loading');
  const { twitchChannel } = useRadioSettings();

  useEffect(() => {
    let cancelled = false;
    let embed: TwitchEmbed | null = null;
    const element = host.current;
    loadTwitch()
      .then((Twitch) => {
        if (cancelled) return;
        embed = new Twitch.Embed(elementId, {
          channel: twitchChannel,
          width: '100%',
          height: '100%',
          layout: 'video',
          parent: [window.location.hostname],
        });
        setState('ready');
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        console.warn('Lecteur Twitch indisponible :', error);
        setState('unavailable');
      });
    return () => {
      cancelled = true;
      embed?.destroy?.();
      // The embed adds its iframe outside React's knowledge; take it out with the player.
      element?.replaceChildren();
    };
  }, [elementId, twitchChannel]);

  return (
    <div className="twitch">
      <div
        id={elementId}
        ref={host}
        className="twitch__frame"
        hidden={state === 'unavailable'}
        aria-label="Lecteur vidéo du direct"
        role="region"
      />
      {state === 'loading' ? <StatusMessage kind="loading">Chargement du lecteur vidéo ...</StatusMessage> : null}
      {/* The same 16:9 box as the video, so that a blocked player never looks like a broken page. */}
      {state === 'unavailable' ? (
        <div className="twitch__frame embed__facade" role="status">
          <p className="embed__name">Le lecteur vidéo ne peut pas s&apos;afficher ici.</p>
          <p className="embed__note">Le direct continue sur Twitch.</p>
          <ExternalLink className="button" href={twitchChannelUrl(twitchChannel)}>
            Regarder le direct sur Twitch
          </ExternalLink>
        </div>
      ) : null}
    </div>
  );
}
