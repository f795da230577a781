import { sitePages, type RemoteModuleRef } from '@collectif/shared';
import { prefetchRemote } from './federation/RemoteArea';
import { internalLinks } from './layout/navigation';

const IDLE_DELAY_MS = 3000;

/**
 * What says a visitor is there and may go on to another page: a touch, a click, a key, a scroll or a
 * mouse moving over the page. A page read without any of them evaluates no other page's scripts.
 */
export const FIRST_INTERACTION_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'scroll', 'wheel'] as const;

const whenIdle = (callback: () => void) => {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 5000 });
  else setTimeout(callback, 0);
};

/** Once, at the visitor's first interaction with the page (never inside its handler's task). */
function onFirstInteraction(callback: () => void): void {
  // One that came before the shell started: the page was scrolled. (Not the browser's sticky
  // activation: a navigation a tool drives, Lighthouse's or a test's, has it without any input.)
  if (window.scrollY > 0) {
    setTimeout(callback, 0);
    return;
  }
  const controller = new AbortController();
  const once = () => {
    controller.abort();
    // After the interaction's own work and its frame: the prefetch waits for idle time anyway.
    setTimeout(callback, 0);
  };
  for (const type of FIRST_INTERACTION_EVENTS) {
    window.addEventListener(type, once, { capture: true, passive: true, signal: controller.signal });
  }
}

/**
 * The pages in turn, one per idle period: each evaluates its part's entry and chunks, and all of
 * them in one idle callback made a task of 45 to 70 ms on a phone slowed 4× (docs/first-screen.md,
 * « Work after the paint »).
 */
function prefetchInTurn(pages: readonly RemoteModuleRef[]): void {
  const [first, ...rest] = pages;
  if (first === undefined) return;
  whenIdle(() => {
    void prefetchRemote(first).then(() => {
      prefetchInTurn(rest);
    });
  });
}

/**
 * The pages of the main menu, fetched and evaluated so that the first click on them is immediate:
 * once the first page has loaded and a few seconds have passed, and once the visitor has interacted
 * with the page (docs/first-screen.md, « Work after the paint »), whichever comes last, then one per
 * idle period. Skipped when the visitor saves data.
 */
export function prefetchNextPages(): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData === true) return;
  let waiting = 2;
  const start = () => {
    waiting -= 1;
    if (waiting === 0) prefetchInTurn(internalLinks(sitePages()).map((link) => link.page));
  };
  onFirstInteraction(start);
  const afterLoad = () => {
    setTimeout(start, IDLE_DELAY_MS);
  };
  // The remote map arrives after the page's own load event in most visits.
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}
