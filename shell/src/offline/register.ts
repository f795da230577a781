import { sitePages } from '@collectif/shared';
import { CACHES, PAGE_TABLE_KEY, SERVICE_WORKER_URL } from './rules';

/**
 * Registers the site's service worker (docs/published.md, « Installable »): in a production build,
 * once the page has loaded and the shell is interactive, when the browser is idle, so that nothing
 * of the first screen waits for it. Then keeps the page's table of pages for the offline page's
 * links (« Mes résidences », the residences followed), as this visit's shell read it.
 */
export function registerServiceWorker(): void {
  if (process.env.NODE_ENV !== 'production' || !('serviceWorker' in navigator)) return;
  // The partner embed's pages never run the shell; should one ever, it registers nothing.
  if (window.location.pathname.startsWith('/embed')) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch((error: unknown) => {
      console.warn('Service worker non enregistré :', error);
    });
    void keepPageTable();
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 0);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

async function keepPageTable(): Promise<void> {
  const pages = sitePages();
  if (pages.length === 0 || !('caches' in window)) return;
  const table = JSON.stringify(pages);
  try {
    const cache = await caches.open(CACHES.offline);
    await cache.put(PAGE_TABLE_KEY, new Response(table, { headers: { 'content-type': 'application/json' } }));
  } catch {
    // Storage refused (a private window, a full disk): the offline page names fewer links.
  }
}
