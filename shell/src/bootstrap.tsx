import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import {
  makeStore,
  matchPage,
  PAGES_CONFIG_ID,
  providePages,
  radioSettings,
  type PageRef,
  ROUTER_STATE_ID,
  readPageTable,
  sitePages,
  SSR_STATE_ID,
  ssrHydrated,
  type HydrationState,
  type SsrState,
} from '@collectif/shared';
import '@collectif/shared/styles/fonts.css';
import '@collectif/shared/styles/tokens.css';
import '@collectif/shared/styles/base.css';
import './layout/layout.css';
import { App, createRouter } from './App';
import { prefetchRemote } from './federation/RemoteArea';
import { pageDefinition } from './pages/definitions';
import { siteOrigin } from './layout/PageHead';
import { NAVIGATION_DATA_DEADLINE_MS } from './pages/lifecycle';
import { readRemotesConfig, registerFromConfig } from './federation/remotes';
import { prefetchNextPages } from './prefetch';
import { PAGE_TABLE_PATH, SHELL_AREA, showDisplayFace } from '@collectif/shared/boot';
import { whenInteractive } from './boot/interactive';
import { yieldToMain } from './boot/yield';
import { registerServiceWorker } from './offline/register';

/**
 * The site's pages, as the server read them from the remotes' declarations (docs/parts.md, « Pages »):
 * the routes and the menu are built from them. A page names them in its own HTML only when its server
 * wrote them there (one before the table left the documents); otherwise they are the file the loader
 * asked for with the scripts (`PAGE_TABLE_PATH`, docs/rendering.md « The document »), asked again
 * once if the first answer fails. Null when neither can be read.
 */
async function readPages(): Promise<PageRef[] | null> {
  const written = document.getElementById(PAGES_CONFIG_ID)?.textContent;
  if (written != null && written !== '') {
    try {
      return readPageTable(JSON.parse(written));
    } catch {
      return null;
    }
  }
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    try {
      const response = await fetch(PAGE_TABLE_PATH);
      if (response.ok) return readPageTable(await response.json());
    } catch {
      // Asked again once.
    }
  }
  return null;
}

/** The router's data as the server's loaders left it: the page it rendered is not loaded again. */
function routerState(): HydrationState | undefined {
  try {
    return JSON.parse(document.getElementById(ROUTER_STATE_ID)?.textContent ?? '') as HydrationState;
  } catch {
    // The page's loader runs again in the browser.
    return undefined;
  }
}

/** The store as the server left it, when the server rendered this page (docs/rendering.md). */
function serverState(): SsrState | null {
  const text = document.getElementById(SSR_STATE_ID)?.textContent ?? '';
  if (text === '') return null;
  try {
    return JSON.parse(text) as SsrState;
  } catch {
    console.error(`État du rendu serveur illisible (#${SSR_STATE_ID}) : les données seront demandées à nouveau`);
    return null;
  }
}

/**
 * The sheets the server wrote into the page (`<style data-href>`, docs/rendering.md, « Styles in the
 * page ») are the ones the federation runtime adds, as links by absolute address, when it loads the
 * page's and the player's modules: it looks for such a link first and adds nothing when one exists.
 * One disabled link per sheet says so; a disabled style sheet link is never fetched. Without it, each
 * sheet was downloaded and applied a second time after hydration.
 */
function markWrittenStyles(): void {
  for (const style of document.querySelectorAll<HTMLStyleElement>('style[data-href]')) {
    const href = style.getAttribute('data-href');
    if (href === null) continue;
    const link = document.createElement('link');
    link.setAttribute('rel', 'stylesheet');
    link.setAttribute('href', new URL(href, document.baseURI).href);
    link.setAttribute('disabled', '');
    document.head.append(link);
  }
}

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root manquant');
  // From here on, what reveals on scroll is hidden until it is in view (base.css); the server's
  // HTML showed it to a browser without JavaScript.
  document.documentElement.classList.add('js');
  // The display face, if the loader has not named it yet (a page the shell renders alone has no loader).
  showDisplayFace();
  markWrittenStyles();
  const table = readPages();
  let remotes = true;
  try {
    registerFromConfig(await readRemotesConfig());
    void prefetchRemote({ remote: 'player', module: 'Player' });
  } catch (error) {
    // Without the remote map, the shell still renders: every remote area shows its fallback.
    console.error(error);
    remotes = false;
  }
  const pages = await table;
  const rendered = serverState();
  if (pages === null) {
    console.error(`Table des pages illisible (${PAGE_TABLE_PATH}, #${PAGES_CONFIG_ID})`);
    // A page the server rendered stays as it was sent: readable, its links followed without
    // scripts, what reveals on scroll shown. Hydrated without its routes, it would be sent home.
    if (rendered !== null) {
      document.documentElement.classList.remove('js');
      return;
    }
  } else {
    providePages(pages);
  }
  if (remotes) {
    // The page the visitor asked for is needed at once: its module loads while the shell renders
    // (its files are already on their way, announced by the page's HTML).
    const match = matchPage(window.location.pathname, sitePages());
    if (match !== null) void prefetchRemote(match.page);
    prefetchNextPages();
  }
  // The start in three tasks, each under the 50 ms of a long one on a phone slowed 4×: the remote
  // map and the page table read (and the page's files asked for), then the store and the router
  // made, then hydration. In one task they took 53 to 83 ms (bench/main-thread.mjs). No date format
  // is made here: the site writes Paris's days and hours without `Intl`, whose first object starts
  // ICU in one piece (shared/src/schedule.ts, `parisOffset`; docs/first-screen.md).
  await yieldToMain();
  const store = makeStore();
  const router = createRouter(
    {
      store,
      definitionOf: pageDefinition,
      origin: siteOrigin,
      radio: radioSettings(),
      pages: sitePages(),
      dataDeadlineMs: NAVIGATION_DATA_DEADLINE_MS,
      log: (message, error) => {
        console.error(message, error);
      },
    },
    rendered === null ? undefined : routerState(),
  );
  await yieldToMain();
  const app = <App store={store} router={router} />;
  // The service worker, once the shell is interactive and the page loaded (docs/published.md, « Installable »).
  whenInteractive(SHELL_AREA, registerServiceWorker);
  if (rendered !== null) {
    // The page arrived rendered: the store starts from the server's answers and React takes over
    // the HTML in place; each remote area hydrates once its module has arrived.
    store.dispatch(ssrHydrated(rendered));
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread until the whole page is hydrated: the page, already painted, stays scrollable.
    startTransition(() => {
      hydrateRoot(root, app, {
        // An area whose module cannot load or render here is rendered again by its boundary (its
        // French fallback); React reports it as recoverable. Logged, not thrown at the page.
        onRecoverableError: (error, info) => {
          console.error('Rendu serveur repris dans le navigateur :', error, info.componentStack);
        },
      });
    });
    return;
  }
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread until the whole page is built (a phone stays responsive meanwhile).
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(app);
  });
}

void start();
