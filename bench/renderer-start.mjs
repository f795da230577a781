// A renderer's start behind its walls (issue 70, the seccomp filter), not a test: the time from
// spawning bubblewrap to the exit of a Node that loaded `node:http` inside, with the walls as a
// renderer has them, with and without the seccomp filter, in turns (with, without, with…) so that the
// machine's ups and downs fall on both alike. Writes bench/results/renderer-start.md and .json.
//   node bench/renderer-start.mjs [--runs=40]
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { arg } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '40'));
process.env.TSX_TSCONFIG_PATH ??= join(root, 'server', 'tsconfig.json');
const { bwrapArgs, seccompFd } = await tsImport(join(root, 'server/src/site/render/sandbox.ts'), import.meta.url);

const node = realpathSync(process.execPath);
const script = "require('node:http'); process.exit(0)";

/** One start: ms from spawn to exit. */
function once(filtered) {
  const fd = filtered ? seccompFd() : null;
  const started = performance.now();
  const child = spawn(
    'bwrap',
    bwrapArgs([node, '-e', script], [dirname(node)], {}, fd === null ? {} : { seccomp: 3 }),
    {
      env: {},
      stdio: ['ignore', 'ignore', 'pipe', ...(fd === null ? [] : [fd])],
    },
  );
  if (fd !== null) closeSync(fd);
  let said = '';
  child.stderr.on('data', (chunk) => (said += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bwrap : ${String(code)} ${said}`));
      else resolve(performance.now() - started);
    });
  });
}

const times = { without: [], with: [] };
// One of each first, not counted: the page cache warmed for both.
await once(false);
await once(true);
for (let run = 0; run < RUNS; run += 1) {
  times.with.push(await once(true));
  times.without.push(await once(false));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const p90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];
const row = (name, values) => `| ${name} | ${median(values).toFixed(1)} ms | ${p90(values).toFixed(1)} ms |`;
const figures = {
  runs: RUNS,
  without: { median: median(times.without), p90: p90(times.without) },
  with: { median: median(times.with), p90: p90(times.with) },
};
const md = `# A renderer's start, with and without the seccomp filter (issue 70)

\`node bench/renderer-start.mjs --runs=${String(RUNS)}\`, ${new Date().toISOString().slice(0, 10)}, ${String(cpus().length)} × ${cpus()[0]?.model.trim() ?? '?'}, Node ${process.version}.

From spawning bubblewrap, with a renderer's walls (docs/rendering.md, « The sandbox »), to the exit of
a Node that loaded \`node:http\` inside; ${String(RUNS)} starts of each, in turns.

| walls | median | 90th percentile |
| --- | --- | --- |
${row('without the seccomp filter', times.without)}
${row('with the seccomp filter', times.with)}
`;
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'renderer-start.md'), md);
writeFileSync(join(root, 'bench', 'results', 'renderer-start.json'), `${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(md);
