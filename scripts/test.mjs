// npm test: every test of the workspace, in the order that fails fastest.
//   the typecheck, lint, format and the production build side by side → jest (all packages; the
//   timeline's tests start Debian's icecast2) beside the deployment tests (Redis, nginx and Icecast,
//   when Debian's redis-server and nginx are installed) → browser tests (Chromium)
// Each stage prints its time, and the run ends with each stage's time and one line "N passed,
// N failed" over jest and the browser tests. No test is ever skipped: a skipped test counts as a
// failure. Why the stages are grouped so: docs/testing.md, « The run's time ». A step that passes
// its stage's limit is stopped and fails the run (scripts/stages.mjs; docs/testing.md, « A failing
// test fails the run »).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readReports } from './reports.mjs';
import { root } from './parts.mjs';
import { freePort } from './ports.mjs';
import { useHermeticProcessEnv } from './hermetic.mjs';
import { run, runTogether, times } from './stages.mjs';

// Time zone and locale fixed for every step (docs/testing.md); the fonts are the browser tests' own.
useHermeticProcessEnv();

const bin = (name) => join(root, 'node_modules', '.bin', name);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const icecast = process.env.ICECAST_PATH ?? '/usr/bin/icecast2';

const runStarted = Date.now();

// Each stage's limit, in minutes: a guard against a step that never ends, not a timing goal. Three
// to four times what each took on one machine of two cores (docs/testing.md: 205 s for the first;
// jest 231 s and the deployment tests 180 s, each alone; 479 s for the browser tests), the browser
// tests' more: a slow machine's fresh clone ran them past 30 minutes with none failing. 80 minutes
// together, under CI's 90.
const LIMIT_MINUTES = { checks: 15, tests: 20, browser: 45 };

/** Debian's Chromium, installed here when missing and possible (as Playwright elsewhere downloads its own). */
function ensureChromium() {
  if (existsSync(chromium)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('Chromium absent : installation du paquet Debian chromium…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    // bubblewrap beside it: the renderers' sandbox, whose tests fail without it.
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium', 'bubblewrap'], { stdio: 'inherit', env });
    if (existsSync(chromium)) return true;
  }
  console.error(
    `Chromium introuvable (${chromium}) : installez-le avec « sudo apt-get install -y chromium » ou indiquez CHROMIUM_PATH.`,
  );
  return false;
}

/**
 * Debian's Icecast, which the timeline's tests start and feed (server/src/timeshift/testing/icecast.ts;
 * docs/deploy.md, « The timeline's segments »): installed here when missing and possible, as Chromium
 * is, and its own service stopped (the tests start their own, on free ports).
 */
function ensureIcecast() {
  if (existsSync(icecast)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('Icecast absent : installation du paquet Debian icecast2…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'icecast2'], { stdio: 'inherit', env });
    spawnSync('service', ['icecast2', 'stop'], { stdio: 'ignore', env });
    if (existsSync(icecast)) return true;
  }
  console.error(
    `Icecast introuvable (${icecast}) : installez-le avec « sudo apt-get install -y icecast2 » ou indiquez ICECAST_PATH.`,
  );
  return false;
}

// The browser tests' server listens on a free port: a server left running on a fixed one by an
// earlier run would make Playwright refuse to start (or, outside CI, be tested instead).
const e2ePort = process.env.E2E_PORT ?? String(await freePort());

const jestReport = join(root, 'node_modules', '.cache', 'jest-report.json');
const deployReport = join(root, 'node_modules', '.cache', 'deploy-report.json');
rmSync(deployReport, { force: true });

/** Whether a program is on the PATH (or in Debian's sbin, where nginx lives). */
const installed = (name) =>
  [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin'].some((dir) => existsSync(join(dir, name)));

/**
 * The deployment's tests (docs/deploy.md), when what they run is installed (said either way): a step
 * of `runTogether`, beside jest, whose output is held until it ends.
 */
function deployTests() {
  const missing = ['redis-server', 'nginx'].filter((name) => !installed(name));
  if (missing.length > 0) {
    console.log(
      `\n▷ Tests de déploiement non lancés : ${missing.join(' et ')} absent(s) (sudo apt-get install -y redis-server nginx libnginx-mod-http-brotli-static ; .ci/run les installe)`,
    );
    return [];
  }
  return [
    {
      label: 'Tests de déploiement (Redis, nginx, plusieurs instances)',
      command: bin('jest'),
      args: ['-c', 'jest.deploy.config.ts', '--ci', '--json', `--outputFile=${deployReport}`],
      held: true,
    },
  ];
}
const e2eReport = join(root, 'e2e', 'test-results', 'results.json');
mkdirSync(dirname(jestReport), { recursive: true });
rmSync(jestReport, { force: true });
rmSync(e2eReport, { force: true });

const steps = [
  () =>
    runTogether(
      [
        { label: 'Types (tsc -b)', command: bin('tsc'), args: ['-b'] },
        { label: 'Lint (eslint)', command: bin('eslint'), args: ['--max-warnings=0', '.'] },
        { label: 'Format (prettier)', command: bin('prettier'), args: ['--check', '.', '--log-level', 'warn'] },
        { label: 'Construction de production', command: process.execPath, args: ['scripts/build.mjs'] },
      ],
      { limitMinutes: LIMIT_MINUTES.checks },
    ),
  () => ensureIcecast(),
  () =>
    runTogether(
      [
        {
          label: 'Tests unitaires et de composants (jest)',
          command: bin('jest'),
          args: ['--ci', '--json', `--outputFile=${jestReport}`],
        },
        ...deployTests(),
      ],
      { limitMinutes: LIMIT_MINUTES.tests },
    ),
  () => ensureChromium(),
  () =>
    run(
      {
        label: 'Tests navigateur (Playwright, Chromium)',
        command: bin('playwright'),
        args: ['test', '-c', 'e2e/playwright.config.ts'],
        env: { ...process.env, CI: process.env.CI ?? '1', CHROMIUM_PATH: chromium, E2E_PORT: e2ePort },
      },
      { limitMinutes: LIMIT_MINUTES.browser },
    ),
];

let ok = true;
for (const step of steps) {
  if (!(await step())) {
    ok = false;
    break;
  }
}

const { counts, failures, passed, skipped, ...rest } = readReports(
  {
    jest: [
      ['jest', jestReport],
      ['déploiement', deployReport],
    ],
    e2e: e2eReport,
  },
  root,
);
for (const line of counts) console.log(line);
if (skipped > 0) {
  console.error(`${skipped} test(s) ignoré(s) : un test ignoré est un défaut.`);
  ok = false;
}
const failed = rest.failed + skipped;
if (failures.length > 0) {
  console.log('\nTests en échec :');
  for (const failure of failures) console.log(`  ${failure}`);
}
console.log('\nDurée de chaque étape :');
for (const { label, seconds } of times) console.log(`  ${label} : ${seconds.toFixed(0)} s`);
console.log(`  en tout : ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
