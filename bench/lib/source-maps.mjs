// Built scripts named back to their sources (issue 85), for the benchmarks that say what ran: a
// script's address on the site is a file of a checkout's build (the shell's at the root, a part's
// under its folder), read with its source map (`node:module`'s SourceMap).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';

/** The built file a script's address names, in `root`: a part's under its folder, the shell's at the root. */
export function builtFile(root, url) {
  let path;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const part = /^\/(mf-[a-z]+)\/(.+\.js)$/.exec(path);
  const file = part === null ? join(root, 'shell', 'dist', path.slice(1)) : join(root, part[1], 'dist', part[2]);
  return file.endsWith('.js') ? file : null;
}

const maps = new Map();
/** The source map of the built file an address names, or null (none, or not a built file). */
export function mapOf(root, url) {
  const key = `${root} ${url}`;
  if (!maps.has(key)) {
    const file = builtFile(root, url);
    const map =
      file !== null && existsSync(`${file}.map`)
        ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
        : null;
    maps.set(key, map);
  }
  return maps.get(key);
}

const texts = new Map();
/**
 * Where a character of a built script comes from (a Long Animation Frame's `sourceCharPosition`):
 * « src/boot/yield.ts:9 (yield) », a library as « react-dom », or null when it cannot be said.
 */
export function sourceAt(root, url, position) {
  const map = mapOf(root, url);
  const file = builtFile(root, url);
  if (map === null || file === null || typeof position !== 'number' || position < 0) return null;
  if (!texts.has(file)) texts.set(file, readFileSync(file, 'utf8'));
  const before = texts.get(file).slice(0, position);
  const line = before.split('\n').length - 1;
  const entry = map.findEntry(line, position - (before.lastIndexOf('\n') + 1));
  const source = entry?.originalSource;
  if (source === undefined) return null;
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (library !== null) return library[1];
  const own = source
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^(\.\.\/)+/, '')
    .replace(/^\.\//, '');
  return `${own}:${String(entry.originalLine + 1)}${entry.name === undefined ? '' : ` (${entry.name})`}`;
}
