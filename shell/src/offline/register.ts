import { sitePages } from '@collectif/shared';
import { PAGE_TABLE_MESSAGE, SERVICE_WORKER_URL } from './rules';

/**
 * Registers the site's service worker (docs/published.md, « Installable »): in a production build,
 * once the page has loaded and the shell is interactive, when the browser is idle, so that nothing
 * of the first screen waits for it. Then hands the worker the table of pages as this visit's shell
 * read it, for the offline page's links (« Mes résidences », the residences followed): the worker
 * writes it into its cache, on its own thread (rules.ts, `PAGE_TABLE_MESSAGE`).
 */
export function registerServiceWorker(): void {
  if (process.env.NODE_ENV !== 'production' || !('serviceWorker' in navigator)) return;
  // The partner embed's pages never run the shell; should one ever, it registers nothing.
  if (window.location.pathname.startsWith('/embed')) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch((error: unknown) => {
      console.warn('Service worker non enregistré :', error);
    });
    void sendPageTable();
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 0);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

async function sendPageTable(): Promise<void> {
  const pages = sitePages();
  if (pages.length === 0) return;
  try {
    const registration = await navigator.serviceWorker.ready;
    registration.active?.postMessage({ kind: PAGE_TABLE_MESSAGE, pages });
  } catch {
    // No worker (storage refused, a private window): the offline page names fewer links.
  }
}
