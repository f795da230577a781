import { lazy, Suspense, type ComponentType } from 'react';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import type { PushToggleProps } from '../push/PushToggle';
import { useHydrated } from '../ui/useHydrated';
import { StarIcon, useToggle } from './toggle';
import '../styles/follow-button.css';

/*
 * « Me prévenir » beside it: its code is the radio part's « prevenir » chunk, asked for once the page
 * is shown (docs/follow.md, « Me prévenir »). Written here and again in « Mes résidences », not in a
 * module both import: what the two pages share already is near webpack's size for a chunk of its
 * own, and one more module would make one, a 15th request before the residence page's first screen
 * (docs/first-screen.md, « The first screen's budget »).
 */
const PushToggle = lazy((): Promise<{ default: ComponentType<PushToggleProps> }> =>
  import(/* webpackChunkName: "prevenir" */ '../push/PushToggle').catch(() => ({ default: () => null })),
);
const stopPrevenir = (id: string) => {
  void import(/* webpackChunkName: "prevenir" */ '../push/push')
    .then(({ choose }) => choose(id, null))
    .catch(() => undefined);
};

/**
 * « Suivre » on a residence's page, under its name, and once followed, where the list is; « Me prévenir »
 * beside it (docs/follow.md).
 */
export function FollowButton({ id, artist }: { id: string; artist: string }) {
  const { followed, problem, toggle } = useToggle(id);
  const hydrated = useHydrated();
  return (
    <div className="follow">
      <button
        type="button"
        className={followed ? 'button follow__button follow__button--on' : 'button follow__button'}
        aria-pressed={followed}
        onClick={() => {
          // Unfollowed: « Me prévenir » goes too.
          if (followed) stopPrevenir(id);
          toggle();
        }}
      >
        <StarIcon filled={followed} />
        Suivre
      </button>
      {hydrated ? (
        <Suspense fallback={null}>
          <PushToggle id={id} artist={artist} />
        </Suspense>
      ) : null}
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
