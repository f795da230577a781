// npm run bench: builds for production, starts the real server on its embedded default (and a
// second one serving the non-federated reference build of the same pages), then measures each
// route in Debian's Chromium and with Lighthouse, the navigation between remotes, and the API.
// Writes bench/results/report.md and bench/results/report.json. Never part of npm test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldLoad, launch, startServer } from './lib/browser.mjs';
import { lighthouseRun } from './lib/lighthouse.mjs';
import { buildReference, layOutReference, referenceRoot } from './lib/reference.mjs';
import { routes } from './lib/routes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const FED_PORT = 8301;
const REF_PORT = 8302;
// The same built parts, every page rendered in the browser (SSR=off): the site before issue 13.
const CSR_PORT = 8303;
const args = new Set(process.argv.slice(2));
// --dist-root=DIR measures a copy of the built parts (e.g. while the workspace is being rebuilt).
const distRoot = process.argv.find((a) => a.startsWith('--dist-root='))?.slice('--dist-root='.length);
// One Lighthouse run varies by a few points: each page is audited this many times and the median
// run (by performance score) is reported, with every run's score beside it.
const lighthouseRuns = Number(
  process.argv.find((a) => a.startsWith('--lighthouse-runs='))?.slice('--lighthouse-runs='.length) ?? 3,
);

function step(label, command, argv) {
  console.log(`▶ ${label}`);
  const r = spawnSync(command, argv, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${label} a échoué`);
}

if (!args.has('--no-build')) {
  step('construction des parties', process.execPath, ['scripts/build.mjs']);
  buildReference();
}
layOutReference();

const kib = (n) => Math.round((n / 1024) * 10) / 10;

async function pageFigures(browser, base) {
  const out = {};
  for (const route of routes) {
    const r = await coldLoad(browser, `${base}${route.path}`);
    const js = r.requestList.filter((x) => x.type === 'Script');
    out[route.path] = {
      requests: r.requests,
      jsFiles: js.length,
      kib: Object.fromEntries(Object.entries(r.bytesByType).map(([k, v]) => [k, kib(v)])),
      jsKiB: kib(js.reduce((a, x) => a + x.bytes, 0)),
      scriptMs: r.scriptMs,
      runtimeCopies: r.runtimeCopies,
    };
  }
  return out;
}

async function lighthouseFigures(urls) {
  const out = {};
  for (const url of urls) {
    const runs = [];
    for (let run = 0; run < lighthouseRuns; run += 1) runs.push(await lighthouseRun(url));
    const byScore = [...runs].sort((a, b) => a.performance - b.performance);
    const median = byScore[Math.floor((byScore.length - 1) / 2)];
    out[url] = { ...median, performanceRuns: runs.map((r) => r.performance) };
  }
  return out;
}

/** Click on a nav link → the new page's h1 visible; per pair of remotes, first and second time. */
async function navigationFigures(browser, base) {
  const pages = [
    { remote: 'radio', path: '/residences', link: 'Résidences' },
    { remote: 'label', path: '/label', link: 'Label' },
    { remote: 'about', path: '/a-propos', link: 'À propos' },
  ];
  // Each page's heading, read once, so that a measure waits for the right page (React Router keeps
  // the previous page on screen while the next one loads).
  const headings = {};
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (r) => r.abort());
    const page = await context.newPage();
    for (const p of pages) {
      await page.goto(`${base}${p.path}`, { waitUntil: 'networkidle' });
      headings[p.path] = (await page.locator('#contenu h1').first().textContent()) ?? '';
    }
    await context.close();
  }
  const showing = (page, path) =>
    page.waitForFunction(
      (text) => {
        const h1 = document.querySelector('#contenu h1');
        return h1 !== null && h1.textContent === text && h1.getBoundingClientRect().height > 0;
      },
      headings[path],
      { timeout: 20_000 },
    );
  const out = [];
  for (const from of pages) {
    for (const to of pages) {
      if (from === to) continue;
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (r) => r.abort());
      const page = await context.newPage();
      await page.goto(`${base}${from.path}`, { waitUntil: 'networkidle' });
      await showing(page, from.path);
      // A visitor reads the page a few seconds before choosing: the shell's idle prefetch has run.
      await page.waitForTimeout(6000);
      const times = [];
      for (let round = 0; round < 2; round += 1) {
        const nav = page.getByRole('navigation', { name: 'Navigation principale' });
        const started = await page.evaluate(() => performance.now());
        await nav.getByRole('link', { name: to.link, exact: true }).click();
        await showing(page, to.path);
        times.push(Math.round((await page.evaluate(() => performance.now())) - started));
        await nav.getByRole('link', { name: from.link, exact: true }).click();
        await showing(page, from.path);
      }
      out.push({ from: from.remote, to: to.remote, firstMs: times[0], secondMs: times[1] });
      await context.close();
    }
  }
  return out;
}

mkdirSync(results, { recursive: true });
const fed = await startServer(root, FED_PORT, distRoot === undefined ? {} : { DIST_ROOT: distRoot });
const ref = await startServer(root, REF_PORT, { DIST_ROOT: referenceRoot });
const csr = await startServer(root, CSR_PORT, {
  ...(distRoot === undefined ? {} : { DIST_ROOT: distRoot }),
  SSR: 'off',
});
const report = { date: new Date().toISOString(), machine: `${String((await import('node:os')).cpus().length)} cœurs` };
try {
  const browser = await launch();
  try {
    report.federated = await pageFigures(browser, `http://127.0.0.1:${String(FED_PORT)}`);
    report.reference = await pageFigures(browser, `http://127.0.0.1:${String(REF_PORT)}`);
    report.browserRendered = await pageFigures(browser, `http://127.0.0.1:${String(CSR_PORT)}`);
    for (const [path, figures] of Object.entries(report.reference)) {
      if (figures.runtimeCopies !== 0) throw new Error(`référence ${path} : le runtime de fédération y est encore`);
    }
    // One copy of the federation runtime per page, the shell's (README, « One federation runtime »).
    for (const [path, figures] of [...Object.entries(report.federated), ...Object.entries(report.browserRendered)]) {
      if (figures.runtimeCopies !== 1) {
        throw new Error(`${path} : ${String(figures.runtimeCopies)} copies du runtime de fédération au lieu d'une`);
      }
    }
    report.navigation = await navigationFigures(browser, `http://127.0.0.1:${String(FED_PORT)}`);
  } finally {
    await browser.close();
  }
  if (!args.has('--no-lighthouse')) {
    report.lighthouse = await lighthouseFigures([
      ...routes.map((r) => `http://127.0.0.1:${String(FED_PORT)}${r.path}`),
      ...routes.map((r) => `http://127.0.0.1:${String(CSR_PORT)}${r.path}`),
      `http://127.0.0.1:${String(REF_PORT)}/`,
    ]);
  }
} finally {
  fed.kill();
  ref.kill();
  csr.kill();
}

// The deployment (issue 23): nginx, Redis and several instances, when they are installed.
if (
  !args.has('--no-deploy') &&
  spawnSync('sh', ['-c', 'command -v redis-server && command -v nginx || test -x /usr/sbin/nginx']).status === 0
) {
  step('déploiement (nginx, Redis, plusieurs instances)', process.execPath, [
    '--import',
    './server/tsx.mjs',
    'bench/deploy.mjs',
  ]);
}

if (!args.has('--no-api') && existsSync(join(root, 'bench', 'api.mjs'))) {
  step('API (autocannon)', process.execPath, ['bench/api.mjs']);
  const apiJson = join(results, 'api.json');
  if (existsSync(apiJson)) report.api = JSON.parse(readFileSync(apiJson, 'utf8'));
}

const home = report.federated['/'];
const refHome = report.reference['/'];
report.ratios = {
  homeJsBytes: Math.round((home.jsKiB / refHome.jsKiB) * 1000) / 1000,
  homeLcp:
    report.lighthouse === undefined
      ? null
      : Math.round(
          (report.lighthouse[`http://127.0.0.1:${String(FED_PORT)}/`].lcpMs /
            report.lighthouse[`http://127.0.0.1:${String(REF_PORT)}/`].lcpMs) *
            1000,
        ) / 1000,
};

const lines = [`# Benchmarks (${report.date.slice(0, 10)}, ${report.machine})`, ''];
lines.push('## Cold load per route (Chromium, 390×844, compressed bytes)', '');
lines.push(
  '| route | build | requests | JS files | JS KiB | CSS KiB | all KiB | script ms | runtime copies |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
);
for (const route of routes) {
  for (const [build, data] of [
    ['fédéré, rendu serveur', report.federated],
    ['fédéré, rendu navigateur (SSR=off)', report.browserRendered],
    ['référence', report.reference],
  ]) {
    const d = data[route.path];
    const all = Object.values(d.kib).reduce((a, b) => a + b, 0);
    lines.push(
      `| ${route.path} | ${build} | ${d.requests} | ${d.jsFiles} | ${d.jsKiB} | ${d.kib.Stylesheet ?? 0} | ${Math.round(all * 10) / 10} | ${d.scriptMs} | ${d.runtimeCopies} |`,
    );
  }
}
lines.push(
  '',
  `Home JS, federated / reference: **${report.ratios.homeJsBytes.toFixed(3)}×**` +
    (report.ratios.homeLcp === null ? '' : `; home LCP ratio **${report.ratios.homeLcp.toFixed(3)}×**`),
  '',
  'The reference is an ordinary single-page bundle served by the same server, without the page hints',
  '(it has no manifests to read them from).',
  '',
);
if (report.lighthouse !== undefined) {
  lines.push(
    `## Lighthouse (mobile, simulated throttling; median of ${String(lighthouseRuns)} runs, every run's score in brackets)`,
    '',
  );
  lines.push(
    `Ports: :${String(FED_PORT)} federated, rendered on the server; :${String(CSR_PORT)} the same parts rendered in the browser (SSR=off); :${String(REF_PORT)} the reference.`,
    '',
    '| page | perf | a11y | best practices | SEO | FCP ms | LCP ms | TBT ms | CLS | audits under 0.9 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const [url, l] of Object.entries(report.lighthouse)) {
    lines.push(
      `| ${url.replace(/^http:\/\/127\.0\.0\.1:/, ':')} | ${l.performance} (${l.performanceRuns.join(', ')}) | ${l.accessibility} | ${l.bestPractices} | ${l.seo} | ${l.fcpMs} | ${l.lcpMs} | ${l.tbtMs} | ${l.cls} | ${l.failing.join(', ')} |`,
    );
  }
  lines.push('');
}
lines.push(
  '## Navigation (click on a nav link → new page heading visible, desktop 1280×800, 6 s after the first page loaded)',
  '',
);
lines.push('| from | to | first ms | second ms |', '| --- | --- | --- | --- |');
for (const n of report.navigation) lines.push(`| ${n.from} | ${n.to} | ${n.firstMs} | ${n.secondMs} |`);
if (report.api !== undefined) lines.push('', '## API', '', 'See [api.md](api.md).');
writeFileSync(join(results, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'report.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
