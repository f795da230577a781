// Entry of the schedule's worker thread (schedule-worker.ts says why it exists). Plain JavaScript
// so that it starts the same way under the server and under jest. Built (server/dist/, beside
// schedule-worker.js), it loads the built worker; from the sources, the TypeScript through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';

const built = new URL('./schedule-worker.js', import.meta.url);
const { serveExpansions } = existsSync(fileURLToPath(built))
  ? await import(built.href)
  : await (await import('tsx/esm/api')).tsImport('./schedule-worker.ts', import.meta.url);
serveExpansions(parentPort);
