// Entry of a render worker (render-pool.ts says why it exists). Plain JavaScript, so that it starts
// the same way under the server and under jest; the TypeScript is loaded through tsx, with the
// options every part extends (the automatic JSX runtime for shared's components).
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../../../../tsconfig.base.json', import.meta.url));
const { renderTask } = await tsImport('./render-worker.ts', import.meta.url);

export default renderTask;
