// A team's deploy, measured (issue 37), not a test: the deployment as the deployment tests start it
// (server/deploy/harness.ts: nginx, Redis, two instances of the built server, each with a
// DEPLOY_ROOT of its own) and the team's own command (scripts/deploy.mjs).
//   1. seconds from `npm run deploy -- label --no-build` to the version live on both instances, and
//      the same for `--rollback`;
//   2. failed requests through nginx (autocannon, 4 connections) during that deploy and rollback;
//   3. on a server with one renderer, the longest answer of /a-propos while a label bundle that
//      loops is on trial.
// Writes bench/results/team-deploy.md and bench/results/team-deploy.json.
//   node --import ./server/tsx.mjs bench/team-deploy.mjs
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import * as tar from 'tar';
import { startDeployment } from '../server/deploy/harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const TOKEN = 'label-jeton-du-banc-de-mesure-0000001';

/** Runs the team's command; resolves with its exit status and what it printed. */
function command(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/deploy.mjs', ...args], {
      cwd: root,
      env: { ...process.env, DEPLOY_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('exit', (status) => resolve({ status, out }));
  });
}

/** The label's live version on an instance (`/api/parts`). */
async function labelVersion(origin) {
  const { parts } = await (await fetch(`${origin}/api/parts`)).json();
  return parts.find((part) => part.name === 'label')?.live?.version ?? null;
}

/** Milliseconds from now until every origin says the same label version other than `before`. */
async function untilLive(origins, before) {
  const started = performance.now();
  for (;;) {
    const seen = await Promise.all(origins.map(labelVersion));
    if (seen.every((version) => version !== before && version === seen[0])) return performance.now() - started;
    if (performance.now() - started > 30_000) throw new Error(`pas en ligne partout : ${seen.join(', ')}`);
    await delay(20);
  }
}

const report = { date: new Date().toISOString(), machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}` };

// 1 and 2: two instances, nginx, Redis; the command sends to the second instance.
{
  const deployment = await startDeployment({
    instances: 2,
    env: { DEPLOY_TOKENS: `label:${TOKEN}`, EDITOR_ORIGIN: 'http://127.0.0.1:9', RENDERERS: '1' },
    instanceEnv: (index, { deployRoot, dir }) => ({ DEPLOY_ROOT: index === 0 ? deployRoot : join(dir, 'other') }),
  });
  try {
    const origins = deployment.instances.map((instance) => `http://127.0.0.1:${String(instance.port)}`);
    for (const path of ['/label', '/a-propos']) await fetch(`${deployment.origin}${path}`);
    let load;
    const loaded = new Promise((resolve) => {
      load = autocannon(
        {
          url: deployment.origin,
          connections: 4,
          duration: 120,
          requests: [{ path: '/label' }, { path: '/mf-label/remoteEntry.js' }, { path: '/a-propos' }],
        },
        (_error, result) => resolve(result),
      );
    });
    await delay(1000);
    const before = await labelVersion(origins[0]);
    const sent = performance.now();
    const deployed = await command(['label', '--no-build', '--site', origins[1]]);
    const answeredMs = performance.now() - sent;
    if (deployed.status !== 0) throw new Error(`déploiement refusé : ${deployed.out}`);
    const deployMs = answeredMs + (await untilLive(origins, before));
    const live = await labelVersion(origins[0]);
    await delay(1000);
    const back = performance.now();
    const rolled = await command(['label', '--rollback', '--site', origins[0]]);
    const rollbackAnsweredMs = performance.now() - back;
    if (rolled.status !== 0) throw new Error(`retour refusé : ${rolled.out}`);
    const rollbackMs = rollbackAnsweredMs + (await untilLive(origins, live));
    await delay(1000);
    load.stop();
    const result = await loaded;
    report.twoInstances = {
      deploySeconds: Number((deployMs / 1000).toFixed(2)),
      deployAnsweredSeconds: Number((answeredMs / 1000).toFixed(2)),
      rollbackSeconds: Number((rollbackMs / 1000).toFixed(2)),
      requests: result.requests.total,
      failed: result.errors + result.timeouts + result.non2xx,
      latencyP99Ms: result.latency.p99,
    };
    console.log('▶ deux instances', report.twoInstances);
  } finally {
    await deployment.close();
  }
}

// 3: one instance, one renderer; a label bundle that loops, deployed through the endpoint.
{
  const deployment = await startDeployment({
    instances: 1,
    nginx: false,
    redis: false,
    env: {
      DEPLOY_TOKENS: `label:${TOKEN}`,
      EDITOR_ORIGIN: 'http://127.0.0.1:9',
      RENDERERS: '1',
      PAGE_CACHE_TTL_S: '0',
    },
    instanceEnv: (_index, { deployRoot }) => ({ DEPLOY_ROOT: deployRoot }),
  });
  const dist = mkdtempSync(join(tmpdir(), 'label-boucle-'));
  try {
    const origin = `http://127.0.0.1:${String(deployment.instances[0].port)}`;
    cpSync(join(root, 'mf-label', 'dist'), dist, { recursive: true });
    writeFileSync(join(dist, 'server', 'remoteEntry.js'), 'for (;;) {}');
    const chunks = [];
    for await (const chunk of tar.c({ gzip: true, cwd: dist, portable: true }, ['.'])) chunks.push(chunk);
    await fetch(`${origin}/a-propos`);
    const trial = fetch(`${origin}/api/parts/label`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/gzip' },
      body: Buffer.concat(chunks),
    }).then(async (res) => ({ status: res.status, body: await res.json() }));
    let done = false;
    void trial.then(() => (done = true));
    const times = [];
    while (!done) {
      const started = performance.now();
      await (await fetch(`${origin}/a-propos`)).text();
      times.push(performance.now() - started);
    }
    const answer = await trial;
    report.loopingTrial = {
      refused: answer.status === 422,
      reason: answer.body.message,
      aboutRequests: times.length,
      aboutLongestMs: Math.round(Math.max(...times)),
      aboutMedianMs: Math.round(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]),
    };
    console.log('▶ essai d’un bundle qui boucle', report.loopingTrial);
  } finally {
    rmSync(dist, { recursive: true, force: true });
    await deployment.close();
  }
}

mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'team-deploy.json'), `${JSON.stringify(report, null, 2)}\n`);
const { twoInstances: two, loopingTrial: loop } = report;
writeFileSync(
  join(results, 'team-deploy.md'),
  `# A team's deploy (bench/team-deploy.mjs)

${report.date}, ${report.machine}.

| what | figure |
| --- | --- |
| \`npm run deploy -- label --no-build\` to live on both instances (s) | ${String(two.deploySeconds)} (answered after ${String(two.deployAnsweredSeconds)}) |
| \`--rollback\` to live on both instances (s) | ${String(two.rollbackSeconds)} |
| requests through nginx during both (autocannon, 4 connections) | ${String(two.requests)} |
| failed or non-2xx | ${String(two.failed)} |
| p99 latency through nginx meanwhile (ms) | ${String(two.latencyP99Ms)} |
| \`/a-propos\` while a looping label bundle is on trial, one renderer: longest (ms) | ${String(loop.aboutLongestMs)} (median ${String(loop.aboutMedianMs)}, ${String(loop.aboutRequests)} requests) |
| that bundle | ${loop.refused ? 'refused' : 'NOT refused'}: ${String(loop.reason)} |
`,
);
