import { sitePages, type RemoteModuleRef } from '@collectif/shared';
import { prefetchRemote } from './federation/RemoteArea';
import { internalLinks } from './layout/navigation';

const IDLE_DELAY_MS = 3000;

const whenIdle = (callback: () => void) => {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 5000 });
  else setTimeout(callback, 0);
};

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
 * Once the first page is shown and the browser is idle, the pages of the main menu are fetched so
 * that the first click on them is immediate. Skipped when the visitor saves data.
 */
export function prefetchNextPages(): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData === true) return;
  const schedule = () => {
    setTimeout(() => {
      prefetchInTurn(internalLinks(sitePages()).map((link) => link.page));
    }, IDLE_DELAY_MS);
  };
  // The remote map arrives after the page's own load event in most visits.
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
}
