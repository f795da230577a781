// What Lighthouse's simulation counts in a page's largest paint, and when each part ends: one audit
// (mobile, simulated throttling) of a page of the built site, then Lighthouse's own LCP estimate
// (Lantern) computed again from the run's trace, with every request and main-thread task of its two
// graphs and their simulated start and end. The estimate is the end of the last of them that is not
// a low-priority picture: this says which one. Not a test; prints, writes nothing.
//   node bench/lcp-graph.mjs [--paths=/a-propos,/label] [--all]
// --all lists the low-priority pictures too (they share the bandwidth in the pessimistic graph).
// This is how issue 48 found that the display face, then the first row's other covers, ended the
// largest paint of every page (docs/interface.md, « Typography »; docs/head.md, « The first image »).
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { startServer } from './lib/browser.mjs';
import { lighthouseResult } from './lib/lighthouse.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PATHS = arg('paths', '/,/label').split(',');
const ALL = process.argv.includes('--all');

/** One node of a graph, as a line: kind, priority, what it is, its size or its task's events. */
function describe(node) {
  if (node.type === 'network') {
    const { priority, resourceType, url, transferSize } = node.request;
    return `${priority} ${resourceType} ${new URL(url).pathname.slice(0, 70)} ${String(transferSize)} B`;
  }
  const names = new Map();
  for (const event of node.childEvents) names.set(event.name, (names.get(event.name) ?? 0) + 1);
  const kept = [...names]
    .filter(([name]) => /Parse|Layout|Paint$|EvaluateScript|UpdateLayoutTree|FunctionCall|TimerFire/.test(name))
    .map(([name, count]) => (count > 1 ? `${name}×${String(count)}` : name));
  return `task ${(node.duration / 1000).toFixed(1)} ms on this machine [${kept.join(' ')}]`;
}

const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port);
try {
  for (const path of PATHS) {
    // Once before: a server's first answer of a kind is not what a visitor gets.
    await fetch(`${origin}${path}`);
    // A run Lighthouse itself could not finish (NO_NAVSTART, seen once in twenty here) is run again.
    let run = await lighthouseResult(`${origin}${path}`, ['performance']);
    for (let attempt = 2; run.lhr.runtimeError && attempt <= 3; attempt += 1) {
      run = await lighthouseResult(`${origin}${path}`, ['performance']);
    }
    const { lhr, artifacts } = run;
    if (lhr.runtimeError) {
      console.log(`${path}: ${lhr.runtimeError.code}`);
      continue;
    }
    const observed = lhr.audits.metrics?.details?.items?.[0] ?? {};
    console.log(
      `\n${path}: LCP ${String(Math.round(lhr.audits['largest-contentful-paint'].numericValue))} ms simulated ` +
        `(observed here at ${String(observed.observedLargestContentfulPaint)} ms)`,
    );
    const data = {
      trace: artifacts.Trace,
      devtoolsLog: artifacts.DevtoolsLog,
      gatherContext: artifacts.GatherContext,
      settings: lhr.configSettings,
      URL: artifacts.URL,
      SourceMaps: artifacts.SourceMaps,
      simulator: null,
    };
    const result = await LanternLargestContentfulPaint.request(data, { computedCache: new Map() });
    for (const [name, estimate] of [
      ['optimistic', result.optimisticEstimate],
      ['pessimistic', result.pessimisticEstimate],
    ]) {
      console.log(`  ${name} graph: ${String(Math.round(estimate.timeInMs))} ms`);
      const rows = [...estimate.nodeTimings].sort((a, b) => a[1].startTime - b[1].startTime);
      for (const [node, timing] of rows) {
        const low =
          node.type === 'network' && /Low/.test(node.request.priority) && node.request.resourceType === 'Image';
        if (low && !ALL) continue;
        console.log(
          `    ${String(Math.round(timing.startTime)).padStart(5)} → ${String(Math.round(timing.endTime)).padStart(5)}  ${describe(node)}`,
        );
      }
    }
  }
} finally {
  server.kill();
}
