// The first page after quiet minutes (issue 85), not a test: starts the built server, then in turns
// asks a page no cache holds (`/emissions?q=…`, a new search each time) while its lane's renderers
// are warm, and the first such page once they have stopped for want of pages (RENDER_IDLE_S, short
// here so that a run takes minutes, not hours: what is measured is a renderer's start, the same
// whatever the wait). Quiet: nothing else asked; under load: cached pages asked all along
// (autocannon, 10 connections). Reports each case's time to the whole page, and the memory (PSS) of
// the server and its processes at rest.
// Writes bench/results/NAME.md and .json (--out=NAME; idle-page by default: the paired runs kept are
// idle-page-before and idle-page-after).
//   node bench/idle-page.mjs [--cycles=5] [--idle=5] [--rest=45] [--keep-one=on|off] [--root=DIR] [--out=NAME]
// --keep-one=off: every renderer of a lane stopped at rest (RENDER_KEEP_ONE=off, the rule before issue
// 85), to pair with the default on one machine in one session.
// --root=DIR: another built checkout (a before/after pair on one machine: run both in one session).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = arg('root', here);
const out = arg('out', 'idle-page');
const CYCLES = Number(arg('cycles', '5'));
const IDLE_S = Number(arg('idle', '5'));
// The memory at rest is read again this long after the quiet cycles' last page: longer than the
// server's check of its own load (server/src/app/rest.ts, every 30 s), which gives its garbage back.
const REST_S = Number(arg('rest', '45'));
const KEEP_ONE = arg('keep-one', 'on');

const port = await freePort();
const base = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port, { RENDER_IDLE_S: String(IDLE_S), RENDER_KEEP_ONE: KEEP_ONE });

let searches = 0;
/** The time to the whole of a page no cache holds, in ms. */
async function uncached() {
  searches += 1;
  const started = performance.now();
  const res = await fetch(`${base}/emissions?q=attente-${String(searches)}-${String(Date.now())}`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/emissions : ${String(res.status)}`);
  return performance.now() - started;
}

/** The server's and its processes' PSS, in MB (/proc's smaps_rollup). */
function pssMb() {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all = [server.pid];
  for (let i = 0; i < all.length; i += 1) all.push(...(children.get(all[i]) ?? []));
  let kb = 0;
  for (const pid of all) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${String(pid)}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return { mb: Math.round(kb / 1024), processes: all.length };
}

/** Waits until the lanes have had no page for longer than RENDER_IDLE_S and their check has run. */
const quiet = () => delay((IDLE_S * 2 + 2) * 1000);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function cycles(load) {
  const warm = [];
  const afterIdle = [];
  let rest = null;
  for (let cycle = 0; cycle < CYCLES; cycle += 1) {
    await uncached();
    for (let i = 0; i < 3; i += 1) warm.push(await uncached());
    if (load === null) {
      await quiet();
      rest = pssMb();
    } else {
      // Under load, the cached pages keep the server busy but no lane's renderer: it idles out too.
      await quiet();
    }
    afterIdle.push(await uncached());
  }
  return { warm, afterIdle, rest };
}

try {
  // Every lane's containers loaded once, as on a running site.
  for (const path of ['/', '/label', '/a-propos', '/emissions']) await (await fetch(`${base}${path}`)).arrayBuffer();
  const quietRun = await cycles(null);
  await delay(REST_S * 1000);
  const restLater = pssMb();
  const loader = autocannon({ url: `${base}/label`, connections: 10, duration: 100_000 });
  const loadRun = await cycles(loader);
  loader.stop();
  const result = {
    date: new Date().toISOString().slice(0, 10),
    cores: cpus().length,
    idleS: IDLE_S,
    keepOne: KEEP_ONE,
    cycles: CYCLES,
    quiet: quietRun,
    restS: REST_S,
    restLater,
    load: loadRun,
  };
  const row = (name, values) =>
    `| ${name} | ${values.map((ms) => ms.toFixed(0)).join(', ')} | ${median(values).toFixed(0)} |`;
  const md = [
    `# The first page after quiet minutes (${result.date}, ${String(result.cores)} cœurs)`,
    '',
    `\`node bench/idle-page.mjs --cycles=${String(CYCLES)} --idle=${String(IDLE_S)} --keep-one=${KEEP_ONE}\`: a search page no cache holds (\`/emissions?q=…\`), its whole answer, in ms; « après repos » is the first one once the lanes have had no page for longer than RENDER_IDLE_S (${String(IDLE_S)} s here).`,
    '',
    '| case | each (ms) | median (ms) |',
    '| --- | --- | ---: |',
    row('calme, renderers chauds', quietRun.warm),
    row('calme, après repos', quietRun.afterIdle),
    row('sous charge, renderers chauds', loadRun.warm),
    row('sous charge, après repos', loadRun.afterIdle),
    '',
    `Memory at rest (PSS, the server and its processes): ${String(quietRun.rest?.mb)} MB in ${String(quietRun.rest?.processes)} processes ${String(IDLE_S * 2 + 2)} s after a page, ${String(restLater.mb)} MB ${String(REST_S + IDLE_S * 2 + 2)} s after it.`,
    '',
  ].join('\n');
  writeFileSync(join(here, 'bench', 'results', `${out}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(here, 'bench', 'results', `${out}.md`), md);
  console.log(md);
} finally {
  server.kill();
}
