import { api } from '@collectif/shared';

/**
 * A count as `Intl.NumberFormat('fr-FR')` writes it, its thousands apart by a narrow no-break space
 * (« 1 234 »), written here: a page's first `Intl` object starts ICU (docs/first-screen.md, « Work
 * after the paint »).
 */
export function frenchCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/**
 * « 23 à l'écoute », live (docs/player.md, « Figures »): the listeners the live channel carries
 * when an admin turned it on (content kind `figures`); nothing when it carries none (turned off,
 * fewer than 5, an older server). Not a live region: a sentence at each change would interrupt
 * whoever listens with a screen reader.
 */
export function ListenerCount() {
  const { data } = api.endpoints.nowPlaying.useQuery(undefined);
  const listeners = data?.listeners;
  if (listeners === undefined) return null;
  return <p className="player__show player__listeners">{`${frenchCount(listeners)} à l’écoute`}</p>;
}
