import { PageLink, PAGES } from '@collectif/shared/addresses';
import { Prevenir } from '../push/Prevenir';
import { StarIcon, useToggle } from './toggle';
import '../styles/follow-button.css';

/**
 * « Suivre » on a residence's page, under its name, and once followed, where the list is; « Me prévenir »
 * beside it (docs/follow.md).
 */
export function FollowButton({ id, artist }: { id: string; artist: string }) {
  const { followed, problem, toggle } = useToggle(id);
  return (
    <div className="follow">
      <button
        type="button"
        className={followed ? 'button follow__button follow__button--on' : 'button follow__button'}
        aria-pressed={followed}
        onClick={toggle}
      >
        <StarIcon filled={followed} />
        Suivre
      </button>
      <Prevenir id={id} artist={artist} />
      {followed ? (
        <span className="follow__note">
          Dans <PageLink page={PAGES.followed}>Mes résidences</PageLink>
        </span>
      ) : null}
      <span className="follow__problem" role="status">
        {problem}
      </span>
    </div>
  );
}
