import { useRef, type KeyboardEvent } from 'react';
import { prefersReducedMotion } from '@collectif/shared/ui';

export interface TeamMember {
  imagePath: string;
  /** First name. */
  title: string;
  /** Roles in the collective. */
  description: string;
}

/** Team portraits are 480 × 600 (scripts/generate-assets.mjs, folder team). */
const PHOTO_WIDTH = 480;
const PHOTO_HEIGHT = 600;

interface TeamStripProps {
  members: readonly TeamMember[];
  /** The strip's accessible name, which also tells keyboard users how to scroll it. */
  label: string;
  previousLabel: string;
  nextLabel: string;
}

/** One card's width plus the gap, so that a step lands on the next snap point. */
function stepOf(strip: HTMLElement): number {
  const cards = strip.querySelectorAll<HTMLElement>('.team-card');
  const [first, second] = [cards[0], cards[1]];
  if (first !== undefined && second !== undefined && second.offsetLeft > first.offsetLeft) {
    return second.offsetLeft - first.offsetLeft;
  }
  return Math.max(strip.clientWidth * 0.8, 1);
}

function scrollStrip(strip: HTMLElement, to: 'previous' | 'next' | 'start' | 'end'): void {
  const behavior = prefersReducedMotion() ? 'auto' : 'smooth';
  if (to === 'start') strip.scrollTo({ left: 0, behavior });
  else if (to === 'end') strip.scrollTo({ left: strip.scrollWidth, behavior });
  else strip.scrollBy({ left: to === 'next' ? stepOf(strip) : -stepOf(strip), behavior });
}

const KEYS: Partial<Record<string, 'previous' | 'next' | 'start' | 'end'>> = {
  ArrowLeft: 'previous',
  ArrowRight: 'next',
  Home: 'start',
  End: 'end',
};

/**
 * Horizontally scrolling team cards. Touch users swipe (with scroll snapping); keyboard users focus
 * the strip and use the arrow keys, Home and End; mouse users have the two buttons.
 */
export function TeamStrip({ members, label, previousLabel, nextLabel }: TeamStripProps) {
  const stripRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const to = KEYS[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    scrollStrip(event.currentTarget, to);
  };

  const onButton = (to: 'previous' | 'next') => {
    if (stripRef.current !== null) scrollStrip(stripRef.current, to);
  };

  return (
    <div className="team">
      <div className="team__controls">
        <button
          type="button"
          className="team__button"
          aria-label={previousLabel}
          aria-controls="equipe-bandeau"
          onClick={() => {
            onButton('previous');
          }}
        >
          <span aria-hidden="true">←</span>
        </button>
        <button
          type="button"
          className="team__button"
          aria-label={nextLabel}
          aria-controls="equipe-bandeau"
          onClick={() => {
            onButton('next');
          }}
        >
          <span aria-hidden="true">→</span>
        </button>
      </div>
      <div
        ref={stripRef}
        id="equipe-bandeau"
        className="team__strip"
        role="region"
        aria-label={label}
        // Focusable so that keyboard users can scroll it; it holds no focusable content of its own.
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <ul className="team__list">
          {members.map((member) => (
            <li key={member.imagePath} className="team-card">
              <img
                className="team-card__photo"
                src={member.imagePath}
                alt=""
                width={PHOTO_WIDTH}
                height={PHOTO_HEIGHT}
                loading="lazy"
                decoding="async"
              />
              <h3 className="team-card__name">{member.title}</h3>
              <p className="team-card__roles">{member.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
