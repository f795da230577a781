// The one entry of every worker thread of the server (threads.ts says which). Plain JavaScript, so
// that it starts the same way under the server and under jest. Built (server/dist/, beside the
// workers' bundles), it loads the built worker; from the sources, the TypeScript through tsx, with
// the options every part extends (the automatic JSX runtime for shared's components).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

/** @type {{ name: string; source: string }} */
const { name, source } = workerData;
const built = new URL(`./${name}.js`, import.meta.url);
let worker;
if (existsSync(fileURLToPath(built))) {
  worker = await import(built.href);
} else {
  process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../../../tsconfig.base.json', import.meta.url));
  const { tsImport } = await import('tsx/esm/api');
  worker = await tsImport(source, import.meta.url);
}

// Piscina runs the module's `runTask` for each task.
export default worker.runTask;
