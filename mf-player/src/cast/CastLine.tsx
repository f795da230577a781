import { useEffect, useState, type ChangeEvent } from 'react';
import { useAppSelector, useAppStore } from '@collectif/shared';
import { selectCast, selectCastShown } from './castSlice';
import { castRequested, castVolumeChanged, playerMedia, startCast } from './remote';
import './cast.css';

/**
 * « Diffuser sur… », under the names (docs/player.md, « Diffuser sur un appareil »): a line rather
 * than a seventh control on the bar, shown only where the browser reports a device. Connected, it
 * says « Diffusé sur l’appareil » (its name changes rather than a pressed state: it does
 * not toggle, it opens the picker) and opens the browser's picker again (to stop or change), with the
 * device's volume where the Remote Playback API carries it. The main button still plays and pauses.
 */
export function CastLine() {
  const store = useAppStore();
  useEffect(() => {
    startCast(store);
  }, [store]);
  const shown = useAppSelector(selectCastShown);
  const { api, link, note } = useAppSelector(selectCast);
  if (!shown) return null;
  const label =
    link === 'connected'
      ? 'Diffusé sur l’appareil'
      : link === 'connecting'
        ? 'Connexion à l’appareil…'
        : 'Diffuser sur…';
  return (
    <>
      <span className="player__cast-row">
        <button
          type="button"
          className={`player__next player__cast${link === 'connected' ? ' player__cast--linked' : ''}`}
          onClick={() => void castRequested(store)}
        >
          {label}
          {link === 'connected' ? <span className="visually-hidden"> : changer ou arrêter</span> : null}
        </button>
        {link === 'connected' && api === 'remote' ? <CastVolume /> : null}
      </span>
      {/* Always there while the line shows, so that screen readers hear the sentence when it comes. */}
      <p className="player__cast-note" role="status">
        {note}
      </p>
    </>
  );
}

/** The device's volume: the element's, which the Remote Playback API sends on to the device. */
function CastVolume() {
  const [volume, setVolume] = useState(() => Math.round((playerMedia()?.volume ?? 1) * 100));
  useEffect(() => {
    const media = playerMedia();
    if (media === null) return;
    const read = () => {
      setVolume(Math.round(media.volume * 100));
    };
    media.addEventListener('volumechange', read);
    return () => {
      media.removeEventListener('volumechange', read);
    };
  }, []);
  return (
    <input
      type="range"
      className="player__cast-volume"
      aria-label="Volume de l’appareil"
      min={0}
      max={100}
      step={5}
      value={volume}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        castVolumeChanged(Number(event.currentTarget.value));
      }}
    />
  );
}
