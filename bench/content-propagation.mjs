// Seconds from « Publier » to the change on another instance (issue « Volunteers edit the
// content »), not a test: two instances of the built server sharing Redis, each with its own
// CONTENT_DIR, as the deployment tests start them (server/deploy/harness.ts). Each round saves the
// team on one instance (the request « Publier » sends) and asks the other every 10 ms until it
// serves the change. Writes bench/results/content-propagation.md and .json.
//   node --import ./server/tsx.mjs bench/content-propagation.mjs [--rounds=20]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startDeployment } from '../server/deploy/harness.ts';
import { arg } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const ROUNDS = Number(arg('rounds', '20'));
const TOKEN = 'jeton-du-banc';
const headers = { authorization: `Bearer ${TOKEN}`, cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' };

const deployment = await startDeployment({ instances: 2, nginx: false, env: { ADMIN_TOKEN: TOKEN } });
try {
  const [one, other] = deployment.instances.map((instance) => `http://127.0.0.1:${String(instance.port)}`);
  const team = await (await fetch(`${one}/api/content/team`)).json();
  const times = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const title = `Camille ${String(round)}`;
    const started = performance.now();
    const saved = await fetch(`${one}/api/content/team`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [{ ...team[0], title }, ...team.slice(1)] }),
    });
    if (!saved.ok) throw new Error(`enregistrement refusé : ${String(saved.status)}`);
    for (;;) {
      const served = await (await fetch(`${other}/api/content/team`)).json();
      if (served[0]?.title === title) break;
      if (performance.now() - started > 10_000) throw new Error('pas servi en 10 s');
      await delay(10);
    }
    times.push(Math.round(performance.now() - started));
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const report = {
    date: new Date().toISOString(),
    cores: cpus().length,
    rounds: ROUNDS,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    maxMs: sorted.at(-1),
    times,
  };
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'content-propagation.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(results, 'content-propagation.md'),
    [
      `# From « Publier » to the other instance (${report.date.slice(0, 10)}, ${String(report.cores)} cœurs)`,
      '',
      'Two instances of the built server, Redis, each its own CONTENT_DIR; the save on one, the other asked every 10 ms.',
      '`node --import ./server/tsx.mjs bench/content-propagation.mjs`',
      '',
      '| rounds | median ms | p95 ms | max ms |',
      '| --- | --- | --- | --- |',
      `| ${String(ROUNDS)} | ${String(report.medianMs)} | ${String(report.p95Ms)} | ${String(report.maxMs)} |`,
      '',
    ].join('\n'),
  );
  console.log(report);
} finally {
  await deployment.close();
}
