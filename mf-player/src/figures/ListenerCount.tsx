import { api } from '@collectif/shared';

/**
 * Made at its first use, not as the bar's code is evaluated on the tap that opens the player: a
 * page's first `Intl` object starts ICU (docs/first-screen.md, « Work after the paint »).
 */
let count: Intl.NumberFormat | undefined;

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
  return (
    <p className="player__show player__listeners">{`${(count ??= new Intl.NumberFormat('fr-FR')).format(listeners)} à l’écoute`}</p>
  );
}
