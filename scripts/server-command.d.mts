/** The main thread's heap, in MB (`--max-old-space-size`). */
export const SERVER_HEAP_MB: number;
/** Each semi-space of the main thread's young generation, in MB (`--max-semi-space-size`). */
export const SERVER_SEMI_SPACE_MB: number;
/** What the server's process is started with in its environment, beyond the site's settings. */
export const SERVER_ENV: Readonly<Record<string, string>>;
/** Node's flags of every start of the server: the heap's cap, its young generation and `--disable-sigusr1`. */
export const SERVER_FLAGS: readonly string[];
/** Node's arguments that start the server from its sources, through the TypeScript loader. */
export function serverArgs(root?: string): string[];
/** Node's arguments that start the built server (`server/dist/main.js`). */
export function builtServerArgs(root?: string): string[];
/** EDITOR_ORIGIN for a site on this machine: `http://edition.localhost:<port>`, unless set otherwise. */
export function localEditorEnv(env: NodeJS.ProcessEnv, port: number | string): Record<string, string>;
