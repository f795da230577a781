import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumPath, chromiumArgs, useHermeticEnv } from './chromium';
import { localEditorEnv, serverArgs } from '../scripts/server-command.mjs';
import { E2E_NOW } from './clock';
import { ALONE } from './phases.mjs';

const PORT = Number(process.env.E2E_PORT ?? 4173);
// The shared server's folder (its content, its timeline), one for the run, outside the repository:
// named here, where the workers inherit it, so that what a spec adds to the content (an invitation,
// e2e/editor.ts) lands where the server reads; web-server.mjs makes it, checks it and removes it.
process.env.E2E_SERVER_FOLDER ??= join(tmpdir(), `collectif-e2e-serveur-${String(process.pid)}`);

// Fonts, time zone and locale are the project's, not the machine's (docs/testing.md): set before
// the server and the browser start, so both inherit them.
useHermeticEnv();

/** Browser tests of the assembled, built site, in Debian's Chromium (see README, "Tests"). */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // The run's temporary files in a folder of its own, removed when it ends (global-setup.ts); the
  // server's content in another (web-server.mjs): nothing of a run in the repository's tree.
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  // Two specs at a time on two cores, then the ones that must run alone (the projects below).
  workers: 2,
  // A failing test runs once more, to record its trace (`trace` below); scripts/test.mjs counts a
  // test that passed only then as failed, so a retry never hides a flaky test (docs/testing.md,
  // « The run's time »).
  retries: 1,
  forbidOnly: true,
  timeout: 30_000,
  expect: {
    timeout: 10_000,
    // Screenshot tests (tests/visual.spec.ts): no animation, no caret, CSS pixels.
    toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css' },
  },
  // One baseline per screen, reviewed by eye when it changes (README, "Tests").
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
  reporter: [['list'], ['json', { outputFile: './test-results/results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${String(PORT)}`,
    // The visitor of every test reads French in Paris; a test that needs another zone says so
    // (test.use({ timezoneId })).
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
    // Recorded on the retry alone: recording every test's trace took a quarter of the suite's time.
    trace: 'on-first-retry',
    // The site's service worker (docs/published.md, « Installable ») answers the requests of the pages
    // it controls, out of reach of a test's `page.route`: blocked here, so that a test that blocks or
    // holds a file sees it blocked; tests/offline.spec.ts allows it and tests it.
    serviceWorkers: 'block',
  },
  // The specs that only read the shared server run two at a time; the ones that write to it or start
  // processes of their own run after them, one at a time (e2e/phases.mjs, docs/testing.md « The
  // run's time »).
  projects: [
    {
      name: 'chromium',
      testIgnore: ALONE,
      use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'chromium, seul',
      testMatch: ALONE,
      dependencies: ['chromium'],
      workers: 1,
      use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    // The Node that runs Playwright, the project's (package.json, « //pins »), with the server's flags;
    // its content and its timeline in a folder of the run's own, removed once it has closed
    // (web-server.mjs, docs/testing.md, « Hermetic browser tests »).
    command: [process.execPath, 'web-server.mjs', '--import', './server-clock.mjs', ...serverArgs('..')].join(' '),
    url: `http://127.0.0.1:${String(PORT)}/healthz`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    // Stopped as systemd stops it (SIGTERM), so that it closes and its folder goes; killed past 10 s.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      // The editor on an origin of its own, as in production (docs/content.md, « The editor's origin »).
      ...localEditorEnv({}, PORT),
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: 'e2e-jeton-admin-de-24-caracteres',
      E2E_CLOCK_START: E2E_NOW,
      E2E_CLOCK_EPOCH: String(Date.now()),
      // Every proposal of the browser tests comes from the loopback: more a day than a real network
      // may send (docs/proposals.md, « Spam »), at both widths; the bounds are the server's tests'.
      PROPOSALS_PER_NETWORK: '50',
      PROPOSALS_PER_NETWORK_FORM: '20',
      PROPOSALS_PER_WIDE_NETWORK: '100',
      // Every passkey of the browser tests is made and used from the loopback too: the editor's specs
      // start more than 10 ceremonies a minute, and the eleventh was refused « Trop de requêtes » (a
      // test that passed only on its retry on CI). The limit itself is the server's tests'
      // (content/routes/edit.test.ts).
      EDITOR_SIGNIN_PER_MIN: '200',
      // The live's listeners sampled every 5 s rather than each minute: « N à l'écoute » shows without
      // a minute's wait (docs/figures.md, « What is counted »).
      FIGURES_SAMPLE_SECONDS: '5',
    },
  },
});
