import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The renderer's code: `renderer.js` beside the built server (server/dist/), or, from the sources,
 * built once by esbuild into `server/.renderer/` (a renderer runs JavaScript only: Node's permission
 * model allows no TypeScript loader).
 */
let entry: Promise<string> | undefined;
export function rendererEntry(): Promise<string> {
  entry ??= (async () => {
    const built = fileURLToPath(new URL('./renderer.js', import.meta.url));
    if (existsSync(built)) return built;
    const server = fileURLToPath(new URL('../../..', import.meta.url));
    const dir = join(server, '.renderer');
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, 'renderer.mjs');
    const script = join(server, 'scripts', 'build.mjs');
    await promisify(execFile)(process.execPath, [script, '--renderer', outfile]);
    return outfile;
  })();
  return entry;
}
