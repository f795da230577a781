// Loads the server's TypeScript: `node --import ./server/tsx.mjs server/src/main.ts`.
// The server renders pages with shared's .tsx components, which need the automatic JSX runtime;
// the root tsconfig lists no files, so tsx is pointed at the options every part extends.
import { fileURLToPath } from 'node:url';

process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../tsconfig.base.json', import.meta.url));
await import('tsx');
