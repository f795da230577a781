// What the shell's entry carries of the federation runtime, read from the build's own source map
// (shell/dist/<entry>.js.map, written by `npm run build`): every byte of the minified entry is given
// to the source file its mapping names, and the files are grouped by package (and by module format,
// since a package bundled once as ESM and once as CommonJS is two copies). Brotli figures are
// marginal: the entry compressed whole, against the same entry with that group's bytes cut out.
//   node bench/federation-weight.mjs [--dist=shell/dist | --file=mf-radio/dist/remoteEntry.js] [--json] [--files]
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const dist = join(root, option('dist') ?? join('shell', 'dist'));

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes a source map's `mappings` into [generated line, generated column, source index], in order. */
function decodeMappings(mappings) {
  const out = [];
  let source = 0;
  let line = 0;
  for (const group of mappings.split(';')) {
    let column = 0;
    if (group !== '') {
      for (const segment of group.split(',')) {
        const fields = [];
        let value = 0;
        let shift = 0;
        for (const char of segment) {
          const digit = BASE64.indexOf(char);
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        column += fields[0];
        if (fields.length > 1) source += fields[1];
        out.push([line, column, fields.length > 1 ? source : -1]);
      }
    }
    line += 1;
  }
  return out;
}

/** Which group a source file belongs to: a federation package (with its format) or something else. */
function groupOf(source) {
  const federation = /node_modules\/(@module-federation\/[^/]+|\.federation)\/(.*)$/.exec(source);
  if (federation !== null) {
    const format = /\.(cjs|mjs|js)$/.exec(federation[2])?.[1] ?? '?';
    return { federation: true, group: `${federation[1]} (${format === 'cjs' ? 'CommonJS' : 'ESM'})` };
  }
  // webpack's own runtime modules: those it adds for federation (sharing, consumes, remotes, the
  // federation runtime's glue, the container) count with the federation runtime.
  if (
    /webpack\/runtime\/(sharing|consumes|remotes|federation|embed\/federation)|webpack\/container-entry/.test(source)
  ) {
    return { federation: true, group: 'webpack runtime modules of federation' };
  }
  if (source.includes('webpack/runtime/') || /webpack\/(bootstrap|startup|before-startup)/.test(source)) {
    return { federation: false, group: 'webpack runtime' };
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  return { federation: false, group: pkg === null ? 'site code' : pkg[1] };
}

const brotli = (text) =>
  brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

// The shell's entry as its build lists it, or any built script with its map (--file=mf-radio/dist/remoteEntry.js).
const file =
  option('file') === undefined
    ? join(dist, JSON.parse(readFileSync(join(dist, 'document.json'), 'utf8')).scripts[0].replace(/^.*\//, ''))
    : join(root, option('file'));
const entryName = relative(root, file);
const code = readFileSync(file, 'utf8');
const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
const lineStarts = [0];
for (let i = 0; i < code.length; i += 1) if (code[i] === '\n') lineStarts.push(i + 1);

// Each generated range [start, end) and the group of its source.
const ranges = [];
const mappings = decodeMappings(map.mappings);
let previous = { start: 0, source: null };
for (const [line, column, sourceIndex] of mappings) {
  const start = lineStarts[line] + column;
  if (start > previous.start) ranges.push({ start: previous.start, end: start, source: previous.source });
  previous = { start, source: sourceIndex < 0 ? null : map.sources[sourceIndex] };
}
ranges.push({ start: previous.start, end: code.length, source: previous.source });

const files = new Map();
const groups = new Map();
for (const range of ranges) {
  const source = range.source ?? '(unmapped)';
  const { federation, group } = range.source === null ? { federation: false, group: '(unmapped)' } : groupOf(source);
  // Mappings count UTF-16 code units; sizes are in bytes, as the file is sent.
  const bytes = Buffer.byteLength(code.slice(range.start, range.end));
  files.set(source, (files.get(source) ?? 0) + bytes);
  const g = groups.get(group) ?? { group, federation, bytes: 0, ranges: [] };
  g.bytes += bytes;
  g.ranges.push(range);
  groups.set(group, g);
}

const total = { bytes: Buffer.byteLength(code), brotli: brotli(code) };
/** The entry's brotli size without the given ranges: what they cost once compressed with the rest. */
function marginalBrotli(cut) {
  const sorted = [...cut].sort((a, b) => a.start - b.start);
  let kept = '';
  let at = 0;
  for (const r of sorted) {
    kept += code.slice(at, r.start);
    at = r.end;
  }
  kept += code.slice(at);
  return total.brotli - brotli(kept);
}

const federationGroups = [...groups.values()].filter((g) => g.federation).sort((a, b) => b.bytes - a.bytes);
const federation = {
  bytes: federationGroups.reduce((a, g) => a + g.bytes, 0),
  brotli: marginalBrotli(federationGroups.flatMap((g) => g.ranges)),
  groups: federationGroups.map((g) => ({ group: g.group, bytes: g.bytes, brotli: marginalBrotli(g.ranges) })),
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ entry: entryName, total, federation }, null, 2));
} else {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`${entryName} : ${kib(total.bytes)} minifiés, ${kib(total.brotli)} brotli`);
  console.log(
    `runtime de fédération : ${kib(federation.bytes)} minifiés (${((federation.bytes / total.bytes) * 100).toFixed(1)} %), ${kib(federation.brotli)} brotli (marginal)`,
  );
  for (const g of federation.groups) {
    console.log(`  ${String(g.bytes).padStart(7)} o  ${String(g.brotli).padStart(6)} o br  ${g.group}`);
  }
  if (process.argv.includes('--files')) {
    for (const [source, bytes] of [...files.entries()].sort((a, b) => b[1] - a[1])) {
      if (groupOf(source).federation)
        console.log(`  ${String(bytes).padStart(7)} o  ${source.replace(/^webpack:\/\/[^/]+\//, '')}`);
    }
  }
}
