// Entry of the feed worker thread (feed-worker.ts says why it exists). Plain JavaScript so that it
// starts the same way under the server and under jest. Built (server/dist/, beside feed-worker.js),
// it loads the built worker; from the sources, the TypeScript is loaded through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';

const built = new URL('./feed-worker.js', import.meta.url);
const { serveDigests } = existsSync(fileURLToPath(built))
  ? await import(built.href)
  : await (await import('tsx/esm/api')).tsImport('./feed-worker.ts', import.meta.url);
serveDigests(parentPort);
