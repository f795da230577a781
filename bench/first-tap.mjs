// A visitor's first tap (issue 85), not a test: for each route, a cold visit in Chromium at 390×844
// (a phone: touch, mobile viewport) with the CPU 4× slower (DevTools' throttle, no network throttle),
// and one tap as early as a visitor could make it: a touch at the control's centre in the first
// animation frame it is visible and enabled in after the first contentful paint, while the page may
// still be hydrating. Two taps, each on a fresh visit:
// - the player's pill (« Stream : ouvrir le lecteur », mf-player/src/ui/PlayerView.tsx), which opens
//   the player on the live stream and plays it: done when the open bar's « Pause » is visible (the
//   sound's start, the audio element's `playing`, is recorded beside it);
// - the menu's button (« Ouvrir le menu », shell/src/layout/Navbar.tsx): done when the dialog « Menu »
//   is visible.
// The tap's latency is its interaction's as INP counts it: the longest `duration` among the Event
// Timing entries sharing its `interactionId` (observed from the document's start, threshold 16 ms,
// so an interaction under 16 ms has none and is reported as < 16). Beside it, the time from the
// tap's `pointerdown` to the first animation frame that shows the change (what the visitor waits for:
// a tap that landed before its handler was attached never shows it), and when the tap came after the
// navigation's start.
// Writes bench/results/NAME.md and .json (--out=NAME, first-tap by default).
//   node bench/first-tap.mjs [--runs=5] [--routes=/,/label] [--root=DIR] [--pair=DIR] [--settle=MS] [--out=NAME]
// --root=DIR: another built checkout served by its own server; --pair=DIR: a second one, measured in
// turns with the first, run by run (a before/after pair on one machine). --settle=MS: each tap made
// MS after the control showed, on a page at rest (the same taps once hydration is over, for comparison).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '5'));
const ROUTES = arg('routes', '/,/residences/axonberg,/label,/a-propos,/emissions').split(',');
const OUT = arg('out', 'first-tap');
/** How long a tap's change is waited for before the tap is counted as one that did nothing. */
const CHANGE_TIMEOUT_MS = 10_000;
/** --settle=MS: the tap made MS after the control showed rather than at once (a page at rest, for comparison). */
const SETTLE_MS = Number(arg('settle', '0'));
const roots = { après: arg('root', here) };
const pair = arg('pair', undefined);
if (pair !== undefined) roots.avant = pair;

/** The two taps: the control, a button whose accessible name (its `aria-label`) matches `name`. */
const TAPS = {
  direct: {
    label: 'the player’s pill (« Stream : ouvrir le lecteur »), which plays the live: « Écouter le direct »',
    name: 'ouvrir le lecteur',
  },
  menu: { label: '« Ouvrir le menu »', name: '^ouvrir le menu$' },
};

/**
 * In the page from the document's start: Event Timing entries (threshold 16 ms) and the first input;
 * each animation frame until the tap, whether the control is on the screen (visible and enabled once
 * the page has painted) and where; the tap's `pointerdown`, then, each animation frame after it,
 * whether the expected change shows.
 */
const OBSERVE = ({ kind, pattern }) => {
  const seen = {
    events: [],
    visibleAt: null,
    point: null,
    tapAt: null,
    target: null,
    changedAt: null,
    playingAt: null,
  };
  window.__firstTap = seen;
  const take = (entry) =>
    seen.events.push({
      name: entry.name,
      id: entry.interactionId ?? 0,
      start: entry.startTime,
      processingStart: entry.processingStart,
      processingEnd: entry.processingEnd,
      duration: entry.duration,
    });
  const observe = (options) => {
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) take(entry);
      }).observe(options);
    } catch {
      // not in this browser
    }
  };
  observe({ type: 'event', durationThreshold: 16, buffered: true });
  observe({ type: 'first-input', buffered: true });
  const shown = (element) => element !== null && element.checkVisibility();
  const changed =
    kind === 'menu'
      ? () => shown(document.querySelector('[role="dialog"][aria-label="Menu"]'))
      : () => shown(document.querySelector('section.player button[aria-label="Pause"]'));
  const watch = () => {
    if (changed()) {
      seen.changedAt = performance.now();
      return;
    }
    if (performance.now() - seen.tapAt < 15_000) requestAnimationFrame(watch);
  };
  const find = () => {
    if (performance.getEntriesByName('first-contentful-paint').length === 0) return;
    const control = [...document.querySelectorAll('button')].find((button) =>
      new RegExp(pattern, 'i').test(button.getAttribute('aria-label') ?? ''),
    );
    if (control === undefined || control.disabled || !control.checkVisibility()) return;
    const box = control.getBoundingClientRect();
    if (box.width === 0 || box.bottom > window.innerHeight) return;
    seen.visibleAt ??= performance.now();
    seen.point = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  };
  const look = () => {
    if (seen.tapAt !== null) return;
    find();
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
  window.addEventListener(
    'pointerdown',
    (event) => {
      if (seen.tapAt !== null) return;
      seen.tapAt = event.timeStamp;
      seen.target =
        event.target instanceof Element ? (event.target.closest('button')?.getAttribute('aria-label') ?? null) : null;
      requestAnimationFrame(watch);
    },
    { capture: true, passive: true },
  );
  // The sound's start: the first `playing` of any media element, in the document or not (an
  // element never attached sends its events to no window), through the element's `play`.
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (...args) {
    this.addEventListener(
      'playing',
      () => {
        seen.playingAt ??= performance.now();
      },
      { once: true },
    );
    return play.apply(this, args);
  };
};

/** One cold visit, one tap as early as it can be made, and what it cost. */
async function visit(browser, origin, path, kind) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  await context.addInitScript(OBSERVE, { kind, pattern: TAPS[kind].name });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    await page.goto(`${origin}${path}`, { waitUntil: 'commit' });
    // Where the control is, the first animation frame it is visible in once the page has painted (a
    // visitor cannot tap what was never on the screen); then a touch there, as a visitor's finger.
    // Not `locator.tap`: its actionability checks wait for two animation frames (« stable »), which
    // would put the tap after a long task in progress and hide the input delay that task makes.
    // One round trip: the page answers in the animation frame it first finds the control in.
    const { x, y } = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const check = () => {
            if (window.__firstTap.point === null) requestAnimationFrame(check);
            else resolve(window.__firstTap.point);
          };
          check();
        }),
    );
    if (SETTLE_MS > 0) await delay(SETTLE_MS);
    await page.touchscreen.tap(x, y);
    const waitFor = (test) =>
      page.waitForFunction(test, undefined, { timeout: CHANGE_TIMEOUT_MS, polling: 100 }).then(
        () => true,
        () => false,
      );
    const done = await waitFor(() => window.__firstTap.changedAt !== null);
    // The sound may start after the bar shows (the stream's first bytes).
    if (done && kind === 'direct') await waitFor(() => window.__firstTap.playingAt !== null);
    // Event Timing entries are dispatched after the frame that follows the interaction.
    await delay(1000);
    const seen = await page.evaluate(() => ({
      ...window.__firstTap,
      navigation: performance.getEntriesByType('navigation')[0]?.toJSON() ?? null,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    }));
    // The tap's interaction: the one whose entries start at its pointerdown (the first with an id).
    const ids = seen.events.filter((entry) => entry.id > 0).sort((a, b) => a.start - b.start);
    const id = ids[0]?.id ?? null;
    // The first input is reported twice (as `first-input` and as `event`): kept once.
    const entries = seen.events.filter(
      (entry, index, all) =>
        id !== null &&
        entry.id === id &&
        all.findIndex((other) => other.name === entry.name && other.start === entry.start) === index,
    );
    const longest = entries.reduce((max, entry) => (max === null || entry.duration > max.duration ? entry : max), null);
    return {
      done,
      visibleAt: seen.visibleAt,
      tapAt: seen.tapAt,
      target: seen.target,
      fcp: seen.fcp,
      domContentLoaded: seen.navigation?.domContentLoadedEventEnd ?? null,
      load: seen.navigation?.loadEventEnd || null,
      // Under the observer's threshold only the first input is reported: counted as « <16 » alike.
      inp: longest === null ? null : longest.duration < 16 ? 0 : longest.duration,
      inputDelay: longest === null ? null : longest.processingStart - longest.start,
      processing: longest === null ? null : longest.processingEnd - longest.processingStart,
      presentation: longest === null ? null : longest.start + longest.duration - longest.processingEnd,
      toChange: seen.changedAt === null ? null : seen.changedAt - seen.tapAt,
      toSound: seen.playingAt === null ? null : seen.playingAt - seen.tapAt,
      entries,
    };
  } finally {
    await context.close();
  }
}

/** The median of the known values (null when none is). */
const median = (values) => {
  const known = values.filter((value) => value !== null).sort((a, b) => a - b);
  return known.length === 0 ? null : known[Math.floor(known.length / 2)];
};
const ms = (value) => (value === null ? '—' : value.toFixed(0));
/** INP of one run: none is an interaction under the observer's 16 ms threshold. */
const inpOf = (run) => run.inp ?? (run.tapAt === null ? null : 0);
const inpText = (value) => (value === null ? '—' : value === 0 ? '<16' : value.toFixed(0));

const servers = [];
const report = {
  date: new Date().toISOString().slice(0, 10),
  cores: cpus().length,
  runs: RUNS,
  changeTimeoutMs: CHANGE_TIMEOUT_MS,
  settleMs: SETTLE_MS,
  // The machine's load (1 minute) at the start and the end: other work on it lengthens every figure.
  load: [loadavg()[0]],
  builds: {},
};
try {
  const origins = {};
  for (const [name, root] of Object.entries(roots)) {
    const port = await freePort();
    servers.push(await startServer(root, port));
    origins[name] = `http://127.0.0.1:${String(port)}`;
    report.builds[name] = {};
    // Each page asked for once: a server's first answer of a kind (its renderer starting) would
    // otherwise fall on the first run only.
    for (const path of ROUTES) await (await fetch(`${origins[name]}${path}`)).text();
  }
  const browser = await launch();
  try {
    for (const path of ROUTES) {
      for (const name of Object.keys(origins)) report.builds[name][path] = { direct: [], menu: [] };
      // In turns, so that the machine's ups and downs fall on both builds and both taps alike.
      for (let run = 0; run < RUNS; run += 1) {
        for (const kind of Object.keys(TAPS)) {
          for (const [name, origin] of Object.entries(origins)) {
            const result = await visit(browser, origin, path, kind);
            report.builds[name][path][kind].push(result);
            console.error(
              `${name} ${path} ${kind} #${String(run + 1)}: visible ${ms(result.visibleAt)} ms, tap ${ms(result.tapAt)} ms, INP ${inpText(inpOf(result))} ms, change ${ms(result.toChange)} ms, on ${String(result.target)}${result.done ? '' : ' (not shown)'}`,
            );
          }
        }
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  for (const server of servers) server.kill();
}
report.load.push(loadavg()[0]);

const list = (values, text = ms) => values.map(text).join(', ');
const lines = [
  `# A first tap (${report.date}, ${String(report.cores)} cœurs, charge ${report.load.map((load) => load.toFixed(1)).join(' → ')}, CPU ×4)`,
  '',
  `\`node bench/first-tap.mjs --runs=${String(RUNS)}${pair === undefined ? '' : ' --pair=DIR'}${SETTLE_MS > 0 ? ` --settle=${String(SETTLE_MS)}` : ''}${OUT === 'first-tap' ? '' : ` --out=${OUT}`}\`: a cold visit at 390×844 (touch), Chromium's CPU throttled 4×, no network throttle; the control touched at its centre (\`page.touchscreen.tap\`) ${SETTLE_MS > 0 ? `${String(SETTLE_MS)} ms after` : 'in'} the first animation frame it is visible and enabled in once the page has painted (its first contentful paint) (not \`locator.tap\`, whose wait for a stable box would put the tap after a long task in progress). Done: the runs whose change showed; a tap whose \`pointerdown\` missed the control is named in the JSON (\`target\`). INP: the longest Event Timing \`duration\` of the tap's interaction (entries from 16 ms: « <16 » when it had none). Change: from the tap's \`pointerdown\` to the first animation frame showing the open bar's « Pause » (\`direct\`) or the dialog « Menu » (\`menu\`); « — » when it did not show within ${String(CHANGE_TIMEOUT_MS / 1000)} s. Sound (\`direct\`): from the tap to the audio's first \`playing\`, waited for up to ${String(CHANGE_TIMEOUT_MS / 1000)} s more. Visible · tap at: when the control was first on the screen, and when the tap came (every run's), after the navigation's start. Medians of ${String(RUNS)} runs, each a fresh visit; every run's value in brackets.`,
  '',
  ...Object.entries(TAPS).map(([kind, tap]) => `- \`${kind}\`: ${tap.label}`),
  '',
];
for (const [name, build] of Object.entries(report.builds)) {
  lines.push(
    `## ${name}`,
    '',
    '| route | tap | done | INP (ms) | change (ms) | sound (ms) | visible · tap at (ms) | input delay (ms) | FCP · DCL · load (ms) |',
    '| --- | --- | ---: | --- | --- | --- | --- | ---: | --- |',
  );
  for (const path of ROUTES) {
    for (const kind of Object.keys(TAPS)) {
      const runs = build[path][kind];
      const inps = runs.map(inpOf);
      lines.push(
        `| ${path} | ${kind} | ${String(runs.filter((run) => run.done).length)}/${String(runs.length)} | **${inpText(median(inps))}** (${list(inps, inpText)}) | **${ms(median(runs.map((run) => run.toChange)))}** (${list(runs.map((run) => run.toChange))}) | ${kind === 'direct' ? `${ms(median(runs.map((run) => run.toSound)))} (${list(runs.map((run) => run.toSound))})` : ''} | ${ms(median(runs.map((run) => run.visibleAt)))} · ${ms(median(runs.map((run) => run.tapAt)))} (${list(runs.map((run) => run.tapAt))}) | ${ms(median(runs.map((run) => run.inputDelay)))} | ${ms(median(runs.map((run) => run.fcp)))} · ${ms(median(runs.map((run) => run.domContentLoaded)))} · ${ms(median(runs.map((run) => run.load)))} |`,
      );
    }
  }
  lines.push('');
}
writeFileSync(join(here, 'bench', 'results', `${OUT}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(here, 'bench', 'results', `${OUT}.md`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
