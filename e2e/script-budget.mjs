// @ts-check
// The scripts a page evaluates before the visitor's first interaction (docs/first-screen.md,
// « Scripts evaluated before the first interaction »): measured in Chromium by V8's coverage, held
// to e2e/scripts.budget.json by the browser tests (tests/script-budget.spec.ts), and written there by
// `node bench/scripts-budget.mjs --write-budget`. Both read this module, so the test and the figures
// measure the same thing the same way.

/** The budget, checked in: raising it is a commit that says why. */
export const BUDGET_FILE = 'e2e/scripts.budget.json';

/** Each route's headroom over what was measured, as the first screen's budget has. */
export const HEADROOM = 0.03;

/** The visitor: a phone 390 CSS px wide, touch, as bench/long-tasks.mjs visits. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * How long no script may be asked for before the page counts as quiet; each script asked for starts
 * the wait again. Longer than the shell's wait of 3 s after the load event (shell/src/prefetch.ts)
 * before it prefetches the menu's pages, which it does only once the visitor has also interacted with
 * the page: a visit that never does, as this one, evaluates none of them.
 */
export const QUIET_MS = 5000;

/** A page that never goes quiet (a script asked for again and again) is a failure, not a figure. */
const QUIET_AT_MOST_MS = 25_000;

/** @typedef {{ path: string; bytes: number }} Script */
/** @typedef {{ path: string; bytes: number; scripts: Script[] }} Evaluated */

/**
 * Waits until the page has asked for no script, and has none on its way, for QUIET_MS.
 * @param {import('@playwright/test').Page} page
 * @param {() => { inFlight: number; last: number }} activity
 */
async function quiet(page, activity) {
  const started = Date.now();
  for (;;) {
    const { inFlight, last } = activity();
    const now = Date.now();
    if (inFlight === 0 && now - last >= QUIET_MS) return;
    if (now - started > QUIET_AT_MOST_MS) {
      throw new Error(
        `la page ne devient pas calme : des scripts demandés pendant plus de ${String(QUIET_AT_MOST_MS)} ms`,
      );
    }
    await page.waitForTimeout(Math.max(100, QUIET_MS - (now - last)));
  }
}

/**
 * A cold visit of `url` (the page must be new, in a context of its own, at the phone's width), with
 * no click and no scroll, until the page has loaded and is quiet: the scripts V8 evaluated, each
 * counted once (a file by its address, a script written in the page by its text), with the length
 * of its source. Largest first.
 * @param {import('@playwright/test').Page} page
 * @param {string} url the page's full address
 * @returns {Promise<Evaluated>}
 */
export async function scriptsEvaluated(page, url) {
  let inFlight = 0;
  let last = Date.now();
  /** @param {import('@playwright/test').Request} request */
  const asked = (request) => {
    if (request.resourceType() !== 'script') return;
    inFlight += 1;
    last = Date.now();
  };
  /** @param {import('@playwright/test').Request} request */
  const answered = (request) => {
    if (request.resourceType() !== 'script') return;
    inFlight -= 1;
    last = Date.now();
  };
  page.on('request', asked);
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  await page.coverage.startJSCoverage({ resetOnNavigation: false, reportAnonymousScripts: true });
  let entries;
  try {
    const response = await page.goto(url, { waitUntil: 'load' });
    if (response === null || !response.ok()) throw new Error(`${url} : HTTP ${String(response?.status())}`);
    await page.waitForLoadState('networkidle');
    await quiet(page, () => ({ inFlight, last }));
  } finally {
    entries = await page.coverage.stopJSCoverage();
    page.off('request', asked);
    page.off('requestfinished', answered);
    page.off('requestfailed', answered);
  }
  const documentUrl = new URL(url).href;
  /** @type {Map<string, Script>} */
  const scripts = new Map();
  for (const entry of entries) {
    // A script without an address is not the site's: its pages' `script-src` has no 'unsafe-eval'
    // (server/src/site/render/csp.ts), so the page can make none; they are the harness's
    // (Playwright's init scripts, such as the one that blocks service workers, `page.evaluate`).
    if (entry.url === '') continue;
    const source = entry.source ?? '';
    const written = entry.url === documentUrl;
    const key = written ? `\0${source}` : entry.url;
    if (scripts.has(key)) continue;
    scripts.set(key, { path: written ? '(dans la page)' : new URL(entry.url).pathname, bytes: source.length });
  }
  const list = [...scripts.values()].sort((a, b) => b.bytes - a.bytes);
  return { path: new URL(url).pathname, bytes: list.reduce((sum, s) => sum + s.bytes, 0), scripts: list };
}

/** @typedef {{ bytes: number }} RouteBudget */

/**
 * The budget of measured figures: each route's bytes with the headroom, rounded up to 100.
 * @param {Record<string, { bytes: number }>} figures
 * @returns {{ routes: Record<string, RouteBudget> }}
 */
export function budgetOf(figures) {
  /** @type {Record<string, RouteBudget>} */
  const routes = {};
  for (const [route, f] of Object.entries(figures)) {
    routes[route] = { bytes: Math.ceil((f.bytes * (1 + HEADROOM)) / 100) * 100 };
  }
  return { routes };
}

/**
 * The largest scripts of a measure, for a message that says what grew.
 * @param {Evaluated} measured
 * @param {number} [count]
 */
export function largest(measured, count = 8) {
  return measured.scripts
    .slice(0, count)
    .map((s) => `${s.path} (${String(s.bytes)})`)
    .join(', ');
}
