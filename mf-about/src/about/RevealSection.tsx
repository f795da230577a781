import type { ReactNode } from 'react';
import { useReveal } from '@collectif/shared/ui';

/** Reveal threshold on the About page: 50 px above the viewport bottom (docs/site.md, « About »). */
const REVEAL_OFFSET_PX = 50;

interface RevealSectionProps {
  /** Anchor of the section, also used to name it by its heading. */
  id: string;
  heading: string;
  className?: string;
  children: ReactNode;
}

/**
 * A titled block of the page that fades in as it enters the viewport and out when it leaves.
 * The section is observed and its content moves, so that the threshold is measured from where the
 * block sits, not from where the animation has shifted it.
 */
export function RevealSection({ id, heading, className, children }: RevealSectionProps) {
  const [ref, active] = useReveal<HTMLElement>(REVEAL_OFFSET_PX);
  const classes = ['about-section__body', className, 'reveal', active ? 'active' : undefined].filter(Boolean).join(' ');
  return (
    <section ref={ref} id={id} aria-labelledby={`${id}-titre`} className="about-section">
      <div className={classes}>
        <h2 id={`${id}-titre`}>{heading}</h2>
        {children}
      </div>
    </section>
  );
}
