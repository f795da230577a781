// The time from the press of « Donner » to HelloAsso's page (issue 62), not a test: what the
// server takes to answer POST /api/support/don with the intent's payment page, the intent made at
// HelloAsso. Measured against the demo's HelloAsso (served by the site itself, in process) and
// against the tests' fake HelloAsso on loopback (its documented answers, over HTTP, the token kept),
// and the first press of a fresh server, which also asks for the token. Each press comes from
// another address (the route allows five a minute from one). The browser's own share (the click,
// the request, the navigation to HelloAsso's page) is not here: it is the same as any POST's.
// Writes bench/results/support-intent.md and .json.
//   node bench/support-intent.mjs [--runs=200]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { arg } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const RUNS = Number(arg('runs', '200'));

process.env.TSX_TSCONFIG_PATH ??= join(root, 'server', 'tsconfig.json');
const load = (path) => tsImport(join(root, path), import.meta.url);
const { buildApi, testConfig } = await load('server/src/api/testing/fixtures.ts');
const { FAKE_ACCOUNT, startFakeHelloAsso } = await load('server/src/support/testing/fake-helloasso.ts');

const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc', 'content-type': 'application/json' };
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

let address = 0;
/** One press: the server's answer, timed; its redirect checked. */
async function press(app) {
  address += 1;
  const started = process.hrtime.bigint();
  const answer = await app.inject({
    method: 'POST',
    url: '/api/support/don',
    headers: XSRF,
    remoteAddress: `10.62.${String(Math.floor(address / 250) % 250)}.${String((address % 250) + 1)}`,
    payload: JSON.stringify({ amount: 2500, residence: 'axonberg' }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (answer.statusCode !== 200) throw new Error(`POST /api/support/don : ${String(answer.statusCode)} ${answer.body}`);
  return ms;
}

async function measure(name, make) {
  const firsts = [];
  // A fresh server each time for the first press (the token is asked then).
  for (let i = 0; i < 5; i += 1) {
    const { app, close } = await make();
    firsts.push(await press(app));
    await close();
  }
  const { app, close } = await make();
  await press(app);
  const times = [];
  for (let run = 0; run < RUNS; run += 1) times.push(await press(app));
  await close();
  times.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);
  return {
    name,
    runs: RUNS,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times.at(-1),
    firstMedian: percentile(firsts, 50),
  };
}

const rows = [];
rows.push(
  await measure('the demo’s HelloAsso (in process)', async () => {
    const app = await buildApi({ config: testConfig() });
    return { app, close: () => app.close() };
  }),
);
rows.push(
  await measure('the fake HelloAsso on loopback (HTTP)', async () => {
    const fake = await startFakeHelloAsso();
    const app = await buildApi({
      config: testConfig({
        upstream: { timeoutMs: 5000, maxBytes: 1024 * 1024 },
        support: { helloasso: { ...FAKE_ACCOUNT, apiUrl: fake.url }, taxReceipt: false },
      }),
    });
    return {
      app,
      close: async () => {
        await app.close();
        await fake.close();
      },
    };
  }),
);

const f = (ms) => `${ms.toFixed(1)} ms`;
const markdown = [
  '# From the press to HelloAsso’s page (issue 62)',
  '',
  `\`node bench/support-intent.mjs --runs=${String(RUNS)}\`, ${new Date().toISOString().slice(0, 10)}, ${String(cpus().length)} cores (shared), Node ${process.version}.`,
  '',
  'What the server takes to answer `POST /api/support/don` with the payment page of the intent it made at HelloAsso (the residence checked, the intent created, its reference kept in the counts file). The first press of a fresh server also asks for the token.',
  '',
  '| HelloAsso | presses | p50 | p95 | max | first press (median of 5) |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${row.name} | ${String(row.runs)} | ${f(row.p50)} | ${f(row.p95)} | ${f(row.max)} | ${f(row.firstMedian)} |`,
  ),
  '',
  'The real HelloAsso adds its own time (an API across the network); the site adds the figures above to it.',
  '',
].join('\n');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'support-intent.md'), markdown);
writeFileSync(join(results, 'support-intent.json'), `${JSON.stringify(rows, null, 2)}\n`);
process.stdout.write(markdown);
process.exit(0);
