// The proof of work's solving time on a phone (docs/proposals.md, « The pages »): the page's own
// solver (shared/src/proposals/solve.ts, compiled as it is) run in Chromium with its CPU slowed
// four times, on challenges the built server makes, one after the other. Median, p95 and the
// longest; the goal is under 2 s. Writes bench/results/proposal-solve.json and .md.
// `node bench/proposal-solve.mjs [--runs=30]` after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { launch, startServer, throttle } from './lib/browser.mjs';
import { arg } from './lib/cli.mjs';
import { percentile } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(arg('runs') ?? 30);
const port = Number(arg('port') ?? 8344);
const origin = `http://127.0.0.1:${String(port)}`;

// The solver's module as the page loads it, its exports made a global of the bench's page.
const { code } = transformSync(readFileSync(join(root, 'shared/src/proposals/solve.ts'), 'utf8'), {
  loader: 'ts',
  format: 'iife',
  globalName: 'solver',
});

const server = await startServer(root, port);
const browser = await launch();
const times = [];
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${origin}/proposer-une-emission`);
  await throttle(context, page);
  await page.evaluate(code);
  for (let i = 0; i < runs; i += 1) {
    const made = await (await fetch(`${origin}/api/proposals/challenge`)).json();
    const took = await page.evaluate(async (challenge) => {
      const begun = performance.now();
      const number = await window.solver.solveNumber(challenge);
      if (number === null) throw new Error('défi sans solution');
      return performance.now() - begun;
    }, made);
    times.push(took);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}

const round = (ms) => Math.round(ms) / 1000;
const results = {
  runs,
  medianS: round(percentile(times, 50)),
  p95S: round(percentile(times, 95)),
  longestS: round(Math.max(...times)),
};
console.log(results);
const out = join(root, 'bench', 'results');
writeFileSync(join(out, 'proposal-solve.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(
  join(out, 'proposal-solve.md'),
  [
    `# The proof of work solved on a phone profile: \`node bench/proposal-solve.mjs --runs=${String(runs)}\``,
    '',
    `Chromium, CPU ×4, the page's solver on ${String(runs)} challenges of the built server: median ${String(results.medianS)} s, p95 ${String(results.p95S)} s, the longest ${String(results.longestS)} s (goal: under 2 s).`,
    '',
  ].join('\n'),
);
process.exit(0);
