/**
 * jsdom has no layout, so no ResizeObserver or IntersectionObserver. The carousel library needs
 * both to exist; these stand-ins never report anything, which is what a page without layout sees.
 */
class SilentObserver {
  observe(): void {
    // Nothing to observe without a layout engine.
  }
  unobserve(): void {
    // Nothing observed.
  }
  disconnect(): void {
    // Nothing observed.
  }
  takeRecords(): [] {
    return [];
  }
}

export function installLayoutObservers(): void {
  Object.assign(window, { ResizeObserver: SilentObserver, IntersectionObserver: SilentObserver });
}

export function removeLayoutObservers(): void {
  Reflect.deleteProperty(window, 'ResizeObserver');
  Reflect.deleteProperty(window, 'IntersectionObserver');
}

/** A controllable `prefers-reduced-motion` (jsdom has no matchMedia). */
export function setReducedMotion(reduce: boolean): void {
  window.matchMedia = (query: string) =>
    ({
      matches: reduce && query.includes('prefers-reduced-motion: reduce'),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as Partial<MediaQueryList> as MediaQueryList;
}
