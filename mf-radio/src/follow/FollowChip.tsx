import { StarIcon, useToggle } from './toggle';
import { useHydrated } from '../ui/useHydrated';
import '../styles/follow-chip.css';

/**
 * « Suivre » on a residence's card, over its picture (docs/follow.md): the page's toggle, named with
 * the artist (a grid has one per card). Shown once the page is hydrated: 56 buttons would add to the
 * grid's document, which a phone must get in its first round trip (docs/rendering.md, « The first
 * screen's budget »), and without the page's script they could do nothing.
 */
export function FollowChip({ id, artist }: { id: string; artist: string }) {
  const hydrated = useHydrated();
  const { followed, problem, toggle } = useToggle(id);
  if (!hydrated) return null;
  return (
    <>
      <button
        type="button"
        className={followed ? 'follow-chip follow-chip--on' : 'follow-chip'}
        aria-pressed={followed}
        aria-label={`Suivre ${artist}`}
        onClick={toggle}
      >
        <StarIcon filled={followed} />
        Suivre
      </button>
      <span className="follow-chip__problem" role="status">
        {problem}
      </span>
    </>
  );
}
