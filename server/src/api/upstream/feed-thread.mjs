// Entry of the feed worker thread (feed-worker.ts says why it exists). Plain JavaScript so that it starts
// the same way under the server and under jest; the TypeScript is loaded through tsx.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { serveDigests } = await tsImport('./feed-worker.ts', import.meta.url);
serveDigests(parentPort);
