import { sitePages } from '@collectif/shared';
import { prefetchRemote } from './federation/RemoteArea';
import { internalLinks } from './layout/navigation';

const IDLE_DELAY_MS = 3000;

/**
 * Once the first page is shown and the browser is idle, the pages of the main menu are fetched so
 * that the first click on them is immediate. Skipped when the visitor saves data.
 */
export function prefetchNextPages(): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData === true) return;
  const run = () => {
    for (const link of internalLinks(sitePages())) prefetchRemote(link.page);
  };
  const schedule = () => {
    setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 5000 });
      else run();
    }, IDLE_DELAY_MS);
  };
  // The remote map arrives after the page's own load event in most visits.
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
}
