import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@collectif/shared';
import { selectOpen, toggled } from '../player/playerSlice';
import { PlayIcon } from './icons';
import type { PlayerBar as Bar } from './PlayerBar';
import './player.css';

let loaded: typeof Bar | null = null;
let loading: Promise<typeof Bar> | null = null;

/**
 * The open bar's code and styles (PlayerBar.tsx, bar.css), asked for once: when the visitor points
 * at the pill, focuses it or presses it, or when something opens the player (a replay chosen). A
 * closed player is on every page's first screen, and the bar's styles were a kilobyte of every page
 * (docs/first-screen.md, « The first screen's budget »). A failed load is tried again at the next intent.
 */
export function loadPlayerBar(): Promise<typeof Bar> {
  loading ??= import(/* webpackChunkName: "barre" */ './PlayerBar').then(
    (module) => (loaded = module.PlayerBar),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** For a build that carries the bar already (the partner script): shown the moment the player opens. */
export function providePlayerBar(bar: typeof Bar): void {
  loaded = bar;
}

/** The player: a 'Stream' pill when closed, the bottom bar when open (docs/interface.md, « The player »). */
export function PlayerView() {
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectOpen);
  const [OpenBar, setOpenBar] = useState(() => loaded);

  // Open, the bar shows once its code and styles are here; until then the pill stays as it was, and
  // nothing is drawn without its styles.
  useEffect(() => {
    if (!open || OpenBar !== null) return;
    let current = true;
    loadPlayerBar().then(
      (bar) => {
        if (current) setOpenBar(() => bar);
      },
      (error: unknown) => {
        console.error('Lecteur : la barre ne peut pas être chargée', error);
      },
    );
    return () => {
      current = false;
    };
  }, [open, OpenBar]);
  const shown = open && OpenBar !== null;

  // The pill and the bar replace each other: a keyboard user who opens or closes the player keeps
  // the focus on the control that took the place of the one they pressed.
  const focusAfterToggle = useRef(false);
  const pill = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusAfterToggle.current || open !== shown) return;
    focusAfterToggle.current = false;
    (shown ? main : pill).current?.focus();
  }, [open, shown]);
  const toggle = () => {
    focusAfterToggle.current = true;
    dispatch(toggled());
  };
  const intent = () => {
    void loadPlayerBar().catch(() => undefined);
  };

  if (OpenBar !== null && shown) return <OpenBar toggle={toggle} mainRef={main} />;
  return (
    <section className="player player--closed" aria-label="Lecteur radio">
      <button
        type="button"
        ref={pill}
        className="player__pill"
        aria-label="Stream : ouvrir le lecteur"
        onClick={toggle}
        onPointerEnter={intent}
        onPointerDown={intent}
        onFocus={intent}
      >
        <span>Stream</span>
        <PlayIcon />
      </button>
    </section>
  );
}
