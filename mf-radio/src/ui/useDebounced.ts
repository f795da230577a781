import { useCallback, useEffect, useRef } from 'react';

/**
 * A call made once typing pauses: `later` waits `delayMs` after the last call before it runs (a
 * search as one types, a colour being dragged); `now` runs at once and drops the one waiting (Enter,
 * the button); what waits is dropped when the component goes. The radio's one way to wait for a pause.
 */
export function useDebounced<A extends unknown[]>(run: (...args: A) => void, delayMs: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  });
  const cancel = useCallback(() => {
    if (timer.current === null) return;
    clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);
  const later = useCallback(
    (...args: A) => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        latest.current(...args);
      }, delayMs);
    },
    [cancel, delayMs],
  );
  const now = useCallback(
    (...args: A) => {
      cancel();
      latest.current(...args);
    },
    [cancel],
  );
  return { later, now, cancel };
}
