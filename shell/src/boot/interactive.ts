import { AREA_READY_EVENT } from '@collectif/shared/boot';

const interactive = new Set<string>();

/** Whether an area has said it is interactive (hydrated, or its part failed and its fallback shows). */
export const isInteractive = (zone: string): boolean => interactive.has(zone);

/** Runs `then` once an area is interactive: at once when it already is. */
export function whenInteractive(zone: string, then: () => void): () => void {
  if (interactive.has(zone)) {
    then();
    return () => undefined;
  }
  const listen = (event: Event) => {
    if ((event as CustomEvent<string>).detail !== zone) return;
    document.removeEventListener(AREA_READY_EVENT, listen);
    then();
  };
  document.addEventListener(AREA_READY_EVENT, listen);
  return () => {
    document.removeEventListener(AREA_READY_EVENT, listen);
  };
}

/**
 * Tells the page's loader that an area's controls now have their handlers (docs/first-screen.md,
 * « Nothing lost before the scripts arrive »): the taps it kept on them are pressed again.
 */
export function announceInteractive(zone: string): void {
  interactive.add(zone);
  document.dispatchEvent(new CustomEvent(AREA_READY_EVENT, { detail: zone }));
}
