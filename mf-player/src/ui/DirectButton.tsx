import { useAppDispatch } from '@collectif/shared';
import { liveRequested } from '../player/playerSlice';

/** « Direct »: back to the live from a replay (the bar) or from behind the edge (the timeline). */
export function DirectButton() {
  const dispatch = useAppDispatch();
  return (
    <button
      type="button"
      className="player__direct"
      aria-label="Revenir au direct"
      onClick={() => dispatch(liveRequested())}
    >
      Direct
    </button>
  );
}
