// What a process's heap holds more in one snapshot than in another, not a test:
//   node bench/heap-diff.mjs BEFORE.heapsnapshot AFTER.heapsnapshot [--top=30]
// (snapshots as `node bench/memory.mjs --heap-snapshots=DIR` takes them). Sums each snapshot's
// nodes' own sizes by kind and constructor (`object Map`, `closure render`, `string`, `code`…) and
// prints the totals and the kinds that grew or shrank the most, with their counts.
import { readFileSync } from 'node:fs';
import { arg } from './lib/cli.mjs';

const [beforeFile, afterFile] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (beforeFile === undefined || afterFile === undefined) {
  throw new Error('node bench/heap-diff.mjs AVANT.heapsnapshot APRÈS.heapsnapshot [--top=30]');
}
const TOP = Number(arg('top', '30'));

/** A snapshot's nodes summed by kind: key → { size, count }, and the heap's whole size. */
function summary(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[fields.indexOf('type')];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    total += size;
    // Strings and code are many and nameless in a useful sense: one line each kind.
    const named = ['object', 'closure', 'native', 'hidden', 'array', 'object shape', 'synthetic'].includes(type);
    const key = named ? `${type} ${String(strings[nodes[i + nameAt]]).slice(0, 60)}` : type;
    const found = byKind.get(key) ?? { size: 0, count: 0 };
    found.size += size;
    found.count += 1;
    byKind.set(key, found);
  }
  return { byKind, total };
}

const before = summary(beforeFile);
const after = summary(afterFile);
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);
const rows = [...new Set([...before.byKind.keys(), ...after.byKind.keys()])].map((key) => {
  const a = before.byKind.get(key) ?? { size: 0, count: 0 };
  const b = after.byKind.get(key) ?? { size: 0, count: 0 };
  return { key, size: b.size - a.size, count: b.count - a.count, after: b.size };
});
console.log(`tas : ${mb(before.total)} → ${mb(after.total)} MB (${mb(after.total - before.total)})`);
console.log('| genre | Δ MB | Δ nombre | après (MB) |');
console.log('| --- | --- | --- | --- |');
for (const row of [...rows].sort((x, y) => Math.abs(y.size) - Math.abs(x.size)).slice(0, TOP)) {
  console.log(`| ${row.key.replace(/\|/g, '\\|')} | ${mb(row.size)} | ${String(row.count)} | ${mb(row.after)} |`);
}
