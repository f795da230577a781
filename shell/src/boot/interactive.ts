import { AREA_READY_EVENT } from '@collectif/shared/boot';

/**
 * Tells the page's loader that an area's controls now have their handlers (docs/rendering.md,
 * « Nothing lost before the scripts arrive »): the taps it kept on them are pressed again.
 */
export function announceInteractive(zone: string): void {
  document.dispatchEvent(new CustomEvent(AREA_READY_EVENT, { detail: zone }));
}
