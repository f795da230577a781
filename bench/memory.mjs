// The server's memory, renderers included (issue 22), not a test: starts the real server on a copy of
// the built parts, then
//   1. redeploys one part's server bundle a hundred times (mf-label's, a new version each time, the
//      label page requested after each), and
//   2. walks thousands of distinct search pages, as a crawler would (`/emissions?q=…`, each a new
//      page for the cache),
//   3. waits, without a page, until each lane is down to the renderer it keeps (RENDER_IDLE_S: at rest),
// reading the memory of the server's process and of every process it started (its renderers, the
// TypeScript loader's esbuild) before, during and after.
// Writes bench/results/memory.md and bench/results/memory.json (--out=NAME: NAME.md and NAME.json).
//   node bench/memory.mjs [--redeploys=100] [--searches=8000] [--renderers=N] [--heap-snapshots=DIR]
//                         [--root=DIR] [--out=NAME]
// --root=DIR: another built checkout's server and parts (a before/after pair on one machine).
// --heap-snapshots=DIR: the server writes a heap snapshot of its process into DIR once every page is
// rendered and again after the redeploys (SIGUSR2, `--heapsnapshot-signal`; a snapshot collects the
// garbage first, and its making costs the process memory: the figures of such a run are not the
// bench's). `node bench/heap-diff.mjs A B` says what the second holds more than the first.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer } from './lib/browser.mjs';
import { freePort } from './lib/cli.mjs';
import { PARTS } from '../shared/parts.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const results = join(here, 'bench', 'results');
const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const root = option('root') ?? here;
const out = option('out') ?? 'memory';
const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.split('=')[1]);
};
const REDEPLOYS = arg('redeploys', 100);
const SEARCHES = arg('searches', 8000);
const RENDERERS = arg('renderers', undefined);
const SNAPSHOTS = process.argv.find((a) => a.startsWith('--heap-snapshots='))?.slice('--heap-snapshots='.length);
if (SNAPSHOTS !== undefined) mkdirSync(SNAPSHOTS, { recursive: true });

/**
 * One process's memory, in kB, from /proc/PID/smaps_rollup: `Rss`, every page it has in memory, and
 * `Pss`, the same with each page shared by n processes counted 1/n in each (0 once it is gone). The
 * renderers run one Node binary, whose code pages (about 56 MB) are in memory once for all of them:
 * summed, RSS counts them once per renderer, PSS once in all. PSS is what the site takes from the
 * machine, and what issue 69's goals are measured in; RSS is kept beside it, as earlier runs gave it.
 * (The bench's own process runs the same binary and takes its share of those pages: the server's
 * PSS is a few MB below what it would be alone.)
 */
const memoryKb = (pid) => {
  try {
    const rollup = readFileSync(`/proc/${String(pid)}/smaps_rollup`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
    return { rss: field('Rss'), pss: field('Pss') };
  } catch {
    return { rss: 0, pss: 0 };
  }
};

/** The processes `pid` started, and theirs (from each process's parent in /proc). */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command's name is in parentheses and may hold spaces: the parent follows its closing one.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  const walk = (at) => {
    for (const child of children.get(at) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** The server's memory and its processes', in MB: { rss, pss }. */
function memoryMb(pid) {
  const total = [pid, ...descendants(pid)]
    .map(memoryKb)
    .reduce((sum, each) => ({ rss: sum.rss + each.rss, pss: sum.pss + each.pss }), { rss: 0, pss: 0 });
  return { rss: Math.round(total.rss / 1024), pss: Math.round(total.pss / 1024) };
}

/** What a process is, from its command line: the server, a renderer, the TypeScript loader's esbuild. */
function role(pid) {
  try {
    const command = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8')
      .split('\0')
      .join(' ');
    if (pid === server.pid) return 'serveur';
    if (/renderer\.m?js/.test(command)) return 'rendu';
    if (/esbuild/.test(command)) return 'esbuild';
    return 'autre';
  } catch {
    return 'autre';
  }
}

/** Each process's PSS, in MB, by role (`rendu ×2`: two renderers together). */
function breakdown(pid) {
  const byRole = new Map();
  for (const each of [pid, ...descendants(pid)]) {
    const [count, kb] = byRole.get(role(each)) ?? [0, 0];
    byRole.set(role(each), [count + 1, kb + memoryKb(each).pss]);
  }
  return [...byRole]
    .map(([name, [count, kb]]) => `${name}${count > 1 ? ` ×${String(count)}` : ''} ${String(Math.round(kb / 1024))}`)
    .join(', ');
}

const copy = mkdtempSync(join(tmpdir(), 'bench-memory-'));
for (const { folder } of PARTS) {
  cpSync(join(root, folder, 'dist'), join(copy, folder, 'dist'), { recursive: true });
}
const bundle = join(copy, 'mf-label', 'dist', 'server', 'remoteEntry.js');
const original = readFileSync(bundle, 'utf8');

const port = await freePort();
const base = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port, {
  DIST_ROOT: copy,
  ...(RENDERERS === undefined ? {} : { RENDERERS: String(RENDERERS) }),
  // The renderers' environment is an allow-list: the flags reach the server's process only.
  ...(SNAPSHOTS === undefined ? {} : { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOTS}` }),
});
const report = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}`.trim(),
  renderers: RENDERERS ?? 'défaut (les cœurs moins un)',
  samples: [],
};
const sample = (label) => {
  const { rss, pss } = memoryMb(server.pid);
  const parts = breakdown(server.pid);
  report.samples.push({ label, rssMb: rss, pssMb: pss, processes: parts });
  console.log(`${label}: RSS ${String(rss)} MB, PSS ${String(pss)} MB (${parts})`);
};
/** A heap snapshot of the server's process, once it is written (--heap-snapshots). */
async function snapshot() {
  if (SNAPSHOTS === undefined) return;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 1000));
  const files = () => readdirSync(SNAPSHOTS).filter((f) => f.endsWith('.heapsnapshot'));
  const before = new Set(files());
  server.kill('SIGUSR2');
  let file;
  while ((file = files().find((f) => !before.has(f))) === undefined) await pause();
  // Written as it is made: done once its size stops changing.
  let size = -1;
  while (statSync(join(SNAPSHOTS, file)).size !== size) {
    size = statSync(join(SNAPSHOTS, file)).size;
    await pause();
    await pause();
  }
  console.log(`instantané du tas : ${join(SNAPSHOTS, file)}`);
}

try {
  // Every page once, so that each thread has loaded every part.
  for (const path of ['/', '/residences', '/label', '/a-propos', '/emissions']) {
    for (let i = 0; i < 4; i += 1) await (await fetch(`${base}${path}`)).text();
  }
  sample('démarré, chaque page rendue');
  await snapshot();

  for (let i = 1; i <= REDEPLOYS; i += 1) {
    writeFileSync(bundle, `${original}\n// redeploy ${String(i)}\n`);
    for (let j = 0; j < 2; j += 1) {
      const html = await (await fetch(`${base}/label?v=${String(i)}-${String(j)}`)).text();
      if (!html.includes('id="ssr-state"')) throw new Error(`redéploiement ${String(i)} : /label non rendue`);
    }
    if (i % 25 === 0) sample(`${String(i)} redéploiements de mf-label`);
  }
  // The threads may be being recycled (RENDER_RECYCLE_AFTER): the old ones stop once the new serve.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  sample('5 s plus tard');
  await snapshot();

  let n = 0;
  const result = await autocannon({
    url: base,
    connections: 10,
    amount: SEARCHES,
    requests: [
      {
        setupRequest: (request) => {
          n += 1;
          return { ...request, path: `/emissions?q=mot${String(n)}` };
        },
      },
    ],
  });
  sample(`${String(SEARCHES)} recherches distinctes`);
  report.crawl = {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  await new Promise((resolve) => setTimeout(resolve, 5000));
  sample('5 s plus tard');

  // At rest: no page for RENDER_IDLE_S (5 minutes by default), each lane down to the one renderer it
  // keeps (docs/rendering.md, « Memory »), or with RENDER_KEEP_ONE=off every renderer stopped and the
  // server alone (the goal: at most 300 MB). Waited for: with none kept, until they have all stopped,
  // up to the idle time and a minute; else the idle time and a minute.
  const idleS = Number(process.env.RENDER_IDLE_S ?? 300);
  const noneKept = process.env.RENDER_KEEP_ONE === 'off';
  const renderers = () => descendants(server.pid).filter((pid) => role(pid).startsWith('rendu')).length;
  const until = Date.now() + (idleS + 60) * 1000;
  while ((!noneKept || renderers() > 0) && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 5000));
  sample(`au repos (${String(idleS)} s sans page)`);
} finally {
  server.kill();
  rmSync(copy, { recursive: true, force: true });
}

// The goal (issue 49): at most 20 MB more after the redeploys than before them. The highest sample
// during them says how far V8's heap went between its collections.
const [rest, ...drill] = report.samples.slice(0, 6);
const serverMb = (s) => Number(/serveur (\d+)/.exec(s?.processes ?? '')?.[1] ?? 0);
report.growth = {
  afterMb: (drill.at(-1)?.pssMb ?? 0) - (rest?.pssMb ?? 0),
  serverAfterMb: serverMb(drill.at(-1)) - serverMb(rest),
  highestMb: Math.max(...drill.map((s) => s.pssMb)) - (rest?.pssMb ?? 0),
};
const lines = [
  `# Memory (${report.date.slice(0, 10)}, ${report.machine}, renderers: ${String(report.renderers)})`,
  '',
  'Memory of the server and every process it started (its renderers), `node bench/memory.mjs`: PSS counts a page shared by several processes (the Node binary) once in all, RSS once in each.',
  '',
  '| moment | PSS (MB) | RSS (MB) | PSS by process (MB) |',
  '| --- | --- | --- | --- |',
  ...report.samples.map((s) => `| ${s.label} | ${String(s.pssMb)} | ${String(s.rssMb)} | ${s.processes} |`),
  '',
  `Growth over ${String(REDEPLOYS)} redeploys (PSS): ${String(report.growth.afterMb)} MB 5 s after them (the server's process ${String(report.growth.serverAfterMb)} MB), ${String(report.growth.highestMb)} MB at the highest sample during them.`,
  '',
  `Crawl: ${String(report.crawl?.requests)} requests, ${String(report.crawl?.requestsPerSecond)} req/s, ${String(report.crawl?.non2xx)} non-2xx, ${String(report.crawl?.errors)} errors.`,
  '',
];
mkdirSync(results, { recursive: true });
writeFileSync(join(results, `${out}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, `${out}.md`), lines.join('\n'));
console.log(lines.join('\n'));
