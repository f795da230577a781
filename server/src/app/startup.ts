import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StatusMessage } from '@collectif/shared/ui';

/**
 * What the server checks before it listens (docs/deploy.md, « The server, built »): that it can
 * render the shared package's components, which need React's automatic JSX runtime. Started from
 * the sources by a TypeScript loader that was not told so (`node --import tsx server/src/main.ts`
 * without server/tsx.mjs), every page used to render in the browser with « React is not defined »
 * in the log, and nothing else said why. Now the server refuses to start and says how to start it.
 * null: it can.
 */
export function renderingProblem(): string | null {
  try {
    const html = renderToStaticMarkup(createElement(StatusMessage, { kind: 'error', children: 'Essai' }));
    if (html.includes('Essai')) return null;
    return `le rendu d'essai n'a rien donné (${html})`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `les composants partagés ne se rendent pas (${message}) : le serveur doit être lancé construit (« node server/dist/main.js », après « npm run build ») ou depuis ses sources avec « node --import ./server/tsx.mjs server/src/main.ts » (ou « npm start »), jamais avec un chargeur TypeScript sans la configuration du projet`;
  }
}
