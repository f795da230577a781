import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { makeStore, matchPage } from '@collectif/shared';
import '@collectif/shared/styles/fonts.css';
import '@collectif/shared/styles/tokens.css';
import '@collectif/shared/styles/base.css';
import './layout/layout.css';
import { App, createRouter } from './App';
import { prefetchRemote } from './federation/RemoteArea';
import { readRemotesConfig, registerFromConfig } from './federation/remotes';
import { prefetchNextPages } from './prefetch';

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root manquant');
  try {
    registerFromConfig(await readRemotesConfig());
    // The page the visitor asked for and the player are needed at once: their modules load while
    // the shell renders (their files are already on their way, announced by the page's HTML).
    prefetchRemote(matchPage(window.location.pathname).page);
    prefetchRemote({ remote: 'player', module: 'Player' });
    prefetchNextPages();
  } catch (error) {
    // Without the remote map, the shell still renders: every remote area shows its fallback.
    console.error(error);
  }
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread until the whole page is built (a phone stays responsive meanwhile).
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App store={makeStore()} router={createRouter()} />
      </StrictMode>,
    );
  });
}

void start();
