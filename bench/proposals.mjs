// Proposals stored per second on one instance (docs/proposals.md), through the built server's
// whole way: a challenge asked of the server and solved here beforehand (altcha-lib, as the page
// does), its minimum time waited, then every proposal posted as JSON, eight at a time, each from a
// network of its own (an IPv6 /64 told by X-Forwarded-For, the server trusting the loopback as it
// trusts nginx), so that the per-address bounds are not what is measured. Each post is checked (the
// proof of work verified and used once, the fields read, the network's count) and stored before it
// is answered; no SMTP, so no e-mail is queued for sending.
//
// Once with the proposals in memory and proposals.json, once with Redis (signed, numbered by INCR)
// when redis-server is installed. Reports proposals a second, the answer's p50 and p95, and the
// server's CPU per proposal. Writes bench/results/proposals.json and proposals.md.
//
// Then the store at its bound (docs/proposals.md, « What is kept »): proposals.json holding the
// largest proposals the fields admit, 30,000 (past what the heap held the wave before) and as many as
// PROPOSALS_STORE_MB's default holds; the built server started on each: whether it falls, its start
// to /healthz, its memory (Pss) once up.
// `node bench/proposals.mjs [--count=400] [--phases=rate,stores] [--root=DIR] [--out=NAME]` after
// `npm run build` (`--root`: another checkout's built server).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/browser.mjs';
import { arg } from './lib/cli.mjs';
import { cpuMs, percentile, startRedis } from './lib/measure.mjs';
import { startWithStore } from './lib/full-store.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const count = Number(arg('count') ?? 400);
const port = Number(arg('port') ?? 8343);
const origin = `http://127.0.0.1:${String(port)}`;
const CONCURRENCY = 8;
const phases = arg('phases')?.split(',') ?? null;
const serverRoot = arg('root') ?? root;

/**
 * A v1 challenge's number: the n whose SHA-256 of salt + n is the challenge (ALTCHA's search, as
 * the page's solver makes it), with Node's synchronous hash, fifty times faster here than
 * altcha-lib's solver, whose work is the browser's and not what is measured.
 */
function solve({ challenge, salt, maxnumber }) {
  for (let n = 0; n <= maxnumber; n += 1) {
    if (
      createHash('sha256')
        .update(`${salt}${String(n)}`)
        .digest('hex') === challenge
    )
      return n;
  }
  return null;
}

/** The i-th proposer's address: an IPv6 /64 of its own, in a /48 of its own, in the documentation's range. */
const network = (i) => `2001:db8:${(i & 0xffff).toString(16)}:${(i >> 16).toString(16)}::1`;

const fields = (i) => ({
  name: `Émission de banc n° ${String(i)}`,
  makers: 'Camille et Sacha',
  style: 'ambient, field recordings',
  links: ['https://soundcloud.com/banc/un', 'https://www.mixcloud.com/banc/deux/'],
  when: 'un mardi sur deux',
  email: `banc-${String(i)}@example.org`,
  message: 'Une heure par mois.',
  site: '',
});

async function run(redis) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-propositions-'));
  const server = await startServer(serverRoot, port, {
    CONTENT_DIR: dir,
    TRUST_PROXY: '127.0.0.1',
    LIVE_TIMESHIFT_HOURS: '0',
    ...(redis === null ? {} : { REDIS_URL: redis.url, SITE_SECRET: 'banc-'.repeat(8) }),
  });
  try {
    // The challenges, solved beforehand: the browser's work, not the server's.
    const solved = [];
    for (let i = 0; i < count; i += 1) {
      // From the post's own network: the challenges are bounded per address a minute too.
      const asked = await fetch(`${origin}/api/proposals/challenge`, { headers: { 'x-forwarded-for': network(i) } });
      if (!asked.ok) throw new Error(`défi refusé : ${String(asked.status)} ${await asked.text()}`);
      const made = await asked.json();
      const begun = performance.now();
      const number = solve(made);
      if (number === null) throw new Error('défi sans solution');
      const altcha = btoa(
        JSON.stringify({
          algorithm: made.algorithm,
          challenge: made.challenge,
          number,
          salt: made.salt,
          signature: made.signature,
          took: Math.round(performance.now() - begun),
        }),
      );
      solved.push({ startedAt: made.startedAt, altcha });
    }
    // The server refuses a form sent under 3 s after it was made.
    await delay(3_500);
    const cpuBefore = cpuMs(server.pid);
    const began = performance.now();
    const latencies = [];
    const statuses = new Map();
    const refusals = new Set();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const i = next;
          next += 1;
          const sent = performance.now();
          const answer = await fetch(`${origin}/api/proposals/emission`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin,
              'x-forwarded-for': network(i),
            },
            body: JSON.stringify({ ...fields(i), ...solved[i] }),
          });
          const text = await answer.text();
          if (answer.status !== 201 && refusals.size < 3) refusals.add(text.slice(0, 200));
          latencies.push(performance.now() - sent);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }
      }),
    );
    const wallMs = performance.now() - began;
    const serverCpu = cpuMs(server.pid) - cpuBefore;
    const stored = statuses.get(201) ?? 0;
    return {
      store: redis === null ? 'memory + proposals.json' : 'Redis + proposals.json',
      posted: count,
      stored,
      statuses: Object.fromEntries(statuses),
      refusals: [...refusals],
      perSecond: Math.round((stored / wallMs) * 1000),
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      p95Ms: Math.round(percentile(latencies, 95) * 10) / 10,
      serverCpuMsPerProposal: Math.round((serverCpu / Math.max(stored, 1)) * 100) / 100,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
if (phases === null || phases.includes('rate')) {
  results.push(await run(null));
  console.log(results[0]);
  const redis = await startRedis();
  if (redis !== null) {
    try {
      results.push(await run(redis));
      console.log(results[1]);
    } finally {
      redis.stop();
    }
  }
}

/** The largest proposal the fields admit (every field at its bound, no note), made `at`. */
const largest = (i, at) => ({
  number: `E-${String(2026)}-${String(i + 1).padStart(6, '0')}`,
  kind: 'emission',
  name: `${String(i)} ${'n'.repeat(112)}`,
  makers: 'm'.repeat(200),
  style: 's'.repeat(120),
  links: Array.from({ length: 5 }, (_, l) => `https://soundcloud.com/${String(l)}/${'l'.repeat(470)}`),
  when: 'w'.repeat(300),
  email: `banc-${String(i)}@example.org`,
  message: 'é'.repeat(4000),
  createdAt: new Date(at).toISOString(),
  state: 'nouvelle',
  notes: [],
  deleteToken: 'a'.repeat(32),
  mails: { team: { sent: true, tries: 1, nextAt: 0 }, ack: { sent: true, tries: 1, nextAt: 0 } },
});
const stores = {};
if (phases === null || phases.includes('stores')) {
  const at = Date.now();
  // The longest of them (its name's number has the most digits).
  stores.recordCost = 2 * JSON.stringify(largest(99_999, at)).length + 512;
  for (const [name, rows] of [
    ['past', 30_000],
    ['bound', Math.floor((40 * 1024 * 1024) / stores.recordCost)],
  ]) {
    const text = JSON.stringify({ proposals: Array.from({ length: rows }, (_, i) => largest(i, at)), counters: {} });
    const outcome = await startWithStore(serverRoot, port, { file: 'proposals.json', text });
    stores[name] = { proposals: rows, fileMb: Math.round(Buffer.byteLength(text) / 1e6), ...outcome };
    console.log('magasin', name, stores[name]);
  }
}

const out = join(root, 'bench', 'results');
const name = arg('out') ?? 'proposals';
const storeLine = (row) =>
  row.fell
    ? `fell at start (exit ${String(row.exit)}: ${row.reason ?? ''})`
    : `up in ${String(row.startMs)} ms, Pss ${String(row.memory?.pss)} MB (Rss ${String(row.memory?.rss)} MB)${row.setAside ? ', what did not fit set aside beside the file' : ''}`;
writeFileSync(join(out, `${name}.json`), `${JSON.stringify({ rate: results, stores }, null, 2)}\n`);
writeFileSync(
  join(out, `${name}.md`),
  [
    `# Proposals on one instance: \`node bench/proposals.mjs --count=${String(count)}\``,
    '',
    ...(results.length === 0
      ? []
      : [
          `The built server, ${String(CONCURRENCY)} posts at a time, each with a proof of work solved beforehand; no SMTP.`,
          '',
          '| store | stored | a second | answer p50 | answer p95 | server CPU a proposal |',
          '| --- | --- | --- | --- | --- | --- |',
          ...results.map(
            (r) =>
              `| ${r.store} | ${String(r.stored)} of ${String(r.posted)} | ${String(r.perSecond)} | ${String(r.p50Ms)} ms | ${String(r.p95Ms)} ms | ${String(r.serverCpuMsPerProposal)} ms |`,
          ),
          '',
        ]),
    ...(stores.bound === undefined
      ? []
      : [
          `proposals.json of the largest proposals (${String(stores.recordCost)} bytes each by records.ts's cost): ${String(stores.past.proposals)} (${String(stores.past.fileMb)} MB): ${storeLine(stores.past)}; the default bound's ${String(stores.bound.proposals)} (${String(stores.bound.fileMb)} MB): ${storeLine(stores.bound)}.`,
          '',
        ]),
  ].join('\n'),
);
process.exit(0);
