import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { makeStore } from '@collectif/shared';
import '@collectif/shared/styles/tokens.css';
import '@collectif/shared/styles/base.css';
import './layout/layout.css';
import { App, createRouter } from './App';
import { fetchRemotesConfig, registerFromConfig } from './federation/remotes';

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root manquant');
  try {
    registerFromConfig(await fetchRemotesConfig());
  } catch (error) {
    // Without the remote map, the shell still renders: every remote area shows its fallback.
    console.error(error);
  }
  createRoot(root).render(
    <StrictMode>
      <App store={makeStore()} router={createRouter()} />
    </StrictMode>,
  );
}

void start();
