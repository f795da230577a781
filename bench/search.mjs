// The archive's search on a large feed (issue 14), not a test: builds the demo feed with about
// 2,000 podcasts (the residences of the content file), the catalogue the API builds once per feed
// version (episodes, slugs, styles), then times each search the archive answers: the query over the
// MiniSearch index, the filters, the page, and its JSON. Writes bench/results/search.md and .json.
//   node bench/search.mjs [--episodes=2000] [--runs=200]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { arg } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const EPISODES = Number(arg('episodes', '2000'));
const RUNS = Number(arg('runs', '200'));

process.env.TSX_TSCONFIG_PATH ??= join(root, 'server', 'tsconfig.json');
const load = (path) => tsImport(join(root, path), import.meta.url);
const { buildDemoFeed } = await load('server/src/api/demo/feed.ts');
const { loadResidences } = await load('server/src/schedule/demo-residences.ts');
const { DEMO_REPLAYS } = await load('server/src/api/demo/audio.ts');
const { feedData, parseFeedXml } = await load('server/src/api/upstream/rss.ts');
const { buildCatalogue } = await load('server/src/episodes/catalogue.ts');
const { readApiConfig } = await load('server/src/api/env.ts');

const residences = loadResidences(readApiConfig({}).demo.residencesFile);
// About 11 % of the demo's items are teasers under 10 MB (not podcasts): ask for enough items.
const feed = buildDemoFeed({
  residences,
  replays: DEMO_REPLAYS,
  anchor: new Date('2026-11-22T00:00:00Z'),
  count: Math.ceil(EPISODES / 0.885),
});
const parsed = parseFeedXml(feed.xml);
const podcasts = feedData(parsed.xml, parsed.items, true).podcasts.slice(0, EPISODES);

const time = (run) => {
  const started = process.hrtime.bigint();
  const value = run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
};

const built = time(() => buildCatalogue(podcasts, residences));
const catalogue = built.value;
const firstSearch = time(() => catalogue.query({ q: 'dub' }));

const SEARCHES = [
  { name: 'tout, page 1', query: {} },
  { name: 'tout, page 40', query: { page: 40 } },
  { name: 'un mot exact', query: { q: 'axonberg' } },
  { name: 'une faute de frappe', query: { q: 'axonbreg' } },
  { name: 'un début de mot', query: { q: 'synap' } },
  { name: 'accents et majuscules', query: { q: 'ÉCHO chambré' } },
  { name: 'trois mots', query: { q: 'dub techno toulouse' } },
  { name: 'style seul', query: { style: 'dub' } },
  { name: 'mot + style + résidence', query: { q: 'session', style: 'jungle', residence: 'kalibre-mona-vex' } },
  { name: '100 caractères (la limite)', query: { q: 'a'.repeat(10 * 1024) } },
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const rows = SEARCHES.map(({ name, query }) => {
  const times = [];
  let total = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const { ms, value } = time(() => JSON.stringify(catalogue.query(query)));
    times.push(ms);
    total = JSON.parse(value).total;
  }
  times.sort((a, b) => a - b);
  return {
    name,
    found: total,
    p50Ms: Number(percentile(times, 50).toFixed(3)),
    p99Ms: Number(percentile(times, 99).toFixed(3)),
    maxMs: Number(times.at(-1).toFixed(3)),
  };
});

const summary = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cores, Node ${process.version}`,
  episodes: catalogue.episodes.length,
  styles: catalogue.styles.length,
  catalogueBuildMs: Number(built.ms.toFixed(1)),
  firstSearchWithIndexBuildMs: Number(firstSearch.ms.toFixed(1)),
  runs: RUNS,
  searches: rows,
};
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'search.json'), `${JSON.stringify(summary, null, 2)}\n`);
const md = [
  `# Search over the archive (${String(summary.episodes)} episodes)`,
  '',
  `${summary.machine}, ${summary.date}. Catalogue built in ${String(summary.catalogueBuildMs)} ms (once per feed version); first search, with the index built, ${String(summary.firstSearchWithIndexBuildMs)} ms. Each search below run ${String(RUNS)} times (query, filters, page and its JSON).`,
  '',
  '| search | found | p50 (ms) | p99 (ms) | max (ms) |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) => `| ${r.name} | ${String(r.found)} | ${String(r.p50Ms)} | ${String(r.p99Ms)} | ${String(r.maxMs)} |`,
  ),
  '',
].join('\n');
writeFileSync(join(results, 'search.md'), md);
console.log(md);
