// The server's memory, renderers included (issue 22), not a test: starts the real server on a copy of
// the built parts, then
//   1. redeploys one part's server bundle a hundred times (mf-label's, a new version each time, the
//      label page requested after each), and
//   2. walks thousands of distinct search pages, as a crawler would (`/emissions?q=…`, each a new
//      page for the cache),
//   3. waits, without a page, until every lane's renderers have stopped (RENDER_IDLE_S: at rest),
// reading the resident memory of the server's process and of every process it started (its renderers,
// the TypeScript loader's esbuild) before, during and after.
// Writes bench/results/memory.md and bench/results/memory.json.
//   node bench/memory.mjs [--redeploys=100] [--searches=8000] [--renderers=N] [--heap-snapshots=DIR]
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

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.split('=')[1]);
};
const REDEPLOYS = arg('redeploys', 100);
const SEARCHES = arg('searches', 8000);
const RENDERERS = arg('renderers', undefined);
const SNAPSHOTS = process.argv.find((a) => a.startsWith('--heap-snapshots='))?.slice('--heap-snapshots='.length);
if (SNAPSHOTS !== undefined) mkdirSync(SNAPSHOTS, { recursive: true });

/** One process's resident memory, in kB (threads included: they share it); 0 once it is gone. */
const rssKb = (pid) => {
  try {
    const line = readFileSync(`/proc/${String(pid)}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
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

/** The server's resident memory and its processes', in MB. */
const rssMb = (pid) => Math.round([pid, ...descendants(pid)].reduce((sum, each) => sum + rssKb(each), 0) / 1024);

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

/** Each process's resident memory, in MB, by role (`rendu ×2`: two renderers together). */
function breakdown(pid) {
  const byRole = new Map();
  for (const each of [pid, ...descendants(pid)]) {
    const [count, kb] = byRole.get(role(each)) ?? [0, 0];
    byRole.set(role(each), [count + 1, kb + rssKb(each)]);
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
  const mb = rssMb(server.pid);
  const parts = breakdown(server.pid);
  report.samples.push({ label, rssMb: mb, processes: parts });
  console.log(`${label}: ${String(mb)} MB (${parts})`);
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

  // At rest: no page for RENDER_IDLE_S (5 minutes by default), every lane's renderers stopped, the
  // server alone (issue 69's goal: at most 300 MB). Waited for, up to the idle time and a minute.
  const idleS = Number(process.env.RENDER_IDLE_S ?? 300);
  const renderers = () => descendants(server.pid).filter((pid) => role(pid).startsWith('rendu')).length;
  const until = Date.now() + (idleS + 60) * 1000;
  while (renderers() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5000));
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
  afterMb: (drill.at(-1)?.rssMb ?? 0) - (rest?.rssMb ?? 0),
  serverAfterMb: serverMb(drill.at(-1)) - serverMb(rest),
  highestMb: Math.max(...drill.map((s) => s.rssMb)) - (rest?.rssMb ?? 0),
};
const lines = [
  `# Memory (${report.date.slice(0, 10)}, ${report.machine}, renderers: ${String(report.renderers)})`,
  '',
  'Resident memory of the whole server process (the server and its renderers), `node bench/memory.mjs`.',
  '',
  '| moment | RSS (MB) | by process (MB) |',
  '| --- | --- | --- |',
  ...report.samples.map((s) => `| ${s.label} | ${String(s.rssMb)} | ${s.processes} |`),
  '',
  `Growth over ${String(REDEPLOYS)} redeploys: ${String(report.growth.afterMb)} MB 5 s after them (the server's process ${String(report.growth.serverAfterMb)} MB), ${String(report.growth.highestMb)} MB at the highest sample during them.`,
  '',
  `Crawl: ${String(report.crawl?.requests)} requests, ${String(report.crawl?.requestsPerSecond)} req/s, ${String(report.crawl?.non2xx)} non-2xx, ${String(report.crawl?.errors)} errors.`,
  '',
];
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'memory.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'memory.md'), lines.join('\n'));
console.log(lines.join('\n'));
