import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUDGET_FILE as FIRST_SCREEN_BUDGET_FILE, resolveRoute } from '../first-screen-budget.mjs';
import { BUDGET_FILE, largest, PHONE, scriptsEvaluated, type RouteBudget } from '../script-budget.mjs';
import { expect, test } from '../fixtures';

// The scripts evaluated before the first interaction (docs/first-screen.md, « Scripts evaluated
// before the first interaction »): on a cold visit at a phone's width, with no click and no scroll,
// the source V8 evaluated until the page is quiet, in bytes, held to e2e/scripts.budget.json. Bytes
// are the same on every machine, so a change that makes a phone's main thread evaluate more fails
// here, where a time could not be asserted. Raising the budget is `node bench/scripts-budget.mjs
// --write-budget` in a commit that says why.

/** A budget file, named from the repository's root. */
const read = (file: string): unknown => JSON.parse(readFileSync(join(__dirname, '..', '..', file), 'utf8'));

const budget = read(BUDGET_FILE) as { routes: Record<string, RouteBudget | undefined> };

/**
 * The pages the first screen's budget holds, which tests/first-screen.spec.ts holds to the pages the
 * benchmarks measure (bench/lib/routes.mjs) and the first event's (`@event`).
 */
const ROUTES = Object.keys((read(FIRST_SCREEN_BUDGET_FILE) as { routes: Record<string, unknown> }).routes);

test.use(PHONE);
// Each page waits seconds for its quiet, doing little meanwhile: the pages are handed out one by one
// to both workers, as the screenshots' are (docs/testing.md, « The run's time »).
test.describe.configure({ mode: 'parallel' });

test("the budget names the first screen's pages, and no other", () => {
  expect(Object.keys(budget.routes).sort()).toEqual([...ROUTES].sort());
});

for (const route of ROUTES) {
  test(`${route}: the scripts it evaluates before a first interaction within its budget`, async ({ page, baseURL }) => {
    // Until the page is quiet: its load and the shell's start (no prefetch of the menu's pages: no interaction).
    test.setTimeout(60_000);
    const origin = baseURL ?? '';
    const path = await resolveRoute(origin, route);
    expect(path, 'the site has a page for it').not.toBeNull();
    const url = new URL(path ?? '/', origin).href;
    // Asked for once first, as bench/scripts-budget.mjs does: a page rendered before its data had
    // come (a server that just started) would not be the one the budget was measured on.
    await fetch(url);
    const measured = await scriptsEvaluated(page, url);
    const limit = budget.routes[route]?.bytes;
    expect(limit, `${route}: its budget in ${BUDGET_FILE}`).toBeDefined();
    expect(
      measured.bytes,
      `${route}: ${String(measured.scripts.length)} scripts, the largest: ${largest(measured)}`,
    ).toBeLessThanOrEqual(limit ?? 0);
  });
}
