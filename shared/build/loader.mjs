// @ts-check
// The loader of a page rendered on the server (shell/src/boot/loader.ts, docs/rendering.md « Scripts
// after the paint »), built by the shell's build into its `document.json` with its CSP hash: the
// server writes it into every rendered page and allows it by that hash, computed here once.
import { createHash } from 'node:crypto';
import { buildSync } from 'esbuild';

/**
 * The loader's source as the browser runs it (one script, no module, minified) and its hash as a
 * `script-src` source (`'sha256-…'`).
 * @param {string} file  the loader's TypeScript source
 * @returns {{ source: string; hash: string }}
 */
export function buildLoader(file) {
  const result = buildSync({
    entryPoints: [file],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const source = (result.outputFiles[0]?.text ?? '').trim();
  if (/<\/script|<!--/i.test(source)) throw new Error(`${file} : le chargeur ne peut pas être écrit dans une page`);
  return { source, hash: `'sha256-${createHash('sha256').update(source).digest('base64')}'` };
}
