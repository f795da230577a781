// Entry of a render worker (render-pool.ts says why it exists). Plain JavaScript, so that it starts
// the same way under the server and under jest. Built (server/dist/, beside render-worker.js), it
// loads the built worker; from the sources, the TypeScript is loaded through tsx, with the options
// every part extends (the automatic JSX runtime for shared's components).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('./render-worker.js', import.meta.url);
let renderTask;
if (existsSync(fileURLToPath(built))) {
  ({ renderTask } = await import(built.href));
} else {
  process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../../../../tsconfig.base.json', import.meta.url));
  const { tsImport } = await import('tsx/esm/api');
  ({ renderTask } = await tsImport('./render-worker.ts', import.meta.url));
}

export default renderTask;
