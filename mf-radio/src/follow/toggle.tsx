import { useState } from 'react';
import { FOLLOW_MAX, follow, unfollow, useFollowedIds, type FollowResult } from '@collectif/shared/follow';

/*
 * « Suivre » (docs/follow.md): a toggle button (`aria-pressed`) whose name stays « Suivre » pressed
 * or not, as a toggle's must; pressed, its star is filled and its colours turn. The list is this
 * browser's: none on the server and while the page hydrates, so the server's HTML is the same for
 * everyone. The page's button and the card's share this.
 */

/** What a refused change says, in the place of the button's note. */
export function followProblem(result: FollowResult): string | null {
  if (result === 'full')
    return `Vous suivez déjà ${String(FOLLOW_MAX)} résidences, le maximum : retirez-en une d’abord.`;
  if (result === 'refused') return 'Ce navigateur ne garde pas la liste : impossible de suivre une résidence ici.';
  return null;
}

export function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        d="m12 3 2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 16.8l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8L12 3Z"
      />
    </svg>
  );
}

/** Follows `id`, or stops following it; what went wrong, if anything. */
export function useToggle(id: string) {
  const followed = useFollowedIds().includes(id);
  const [problem, setProblem] = useState<string | null>(null);
  const toggle = () => {
    setProblem(followProblem(followed ? unfollow(id) : follow(id)));
  };
  return { followed, problem, toggle };
}
