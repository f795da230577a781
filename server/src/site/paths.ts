import * as v from 'valibot';

/**
 * An address of this site that a page may name in an attribute: a path from the root, never another
 * host (`//…`), nor a character that could leave the attribute. Written once for what the shell's
 * build lists (render/document.ts) and the images a page announces (hints.ts).
 */
export const sitePath = v.pipe(v.string(), v.regex(/^\/(?!\/)[A-Za-z0-9/_.%-]*$/));
