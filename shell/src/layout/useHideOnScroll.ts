import { useEffect, useState } from 'react';

export const HIDE_THRESHOLD_PX = 30;

/** Hidden while scrolling down past the threshold; visible again on scrolling up or at the top. */
export function useHideOnScroll(disabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (disabled) return undefined;
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (y <= 0) setHidden(false);
      else if (y > last && y > HIDE_THRESHOLD_PX) setHidden(true);
      else if (y < last) setHidden(false);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
    };
  }, [disabled]);
  // While the menu is open the bar always shows.
  return hidden && !disabled;
}
