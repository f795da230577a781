/**
 * The loader's source as the browser runs it (one script, no module, minified) and its hash as a
 * `script-src` source (`'sha256-…'`).
 * @param {string} file  the loader's TypeScript source
 * @returns {{ source: string; hash: string }}
 */
export function buildLoader(file: string): {
    source: string;
    hash: string;
};
