import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstScreen } from '../../scripts/first-screen.mjs';
import { BUDGET_FILE, DOCUMENT_MAX, resolveRoute, type RouteBudget } from '../first-screen-budget.mjs';
import { expect, test } from '../fixtures';

// The first screen's budget (docs/first-screen.md, « The first screen's budget »): each page's document,
// the requests made before its first paint and those its loader makes after it, in bytes as sent
// compressed, held to e2e/first-screen.budget.json. Bytes are the same on every machine, so a change
// that makes a phone's first screen heavier fails here, where a time could not be asserted. Raising
// the budget is `node bench/first-screen.mjs --write-budget` in a commit that says why.

const budget = JSON.parse(readFileSync(join(__dirname, '..', '..', BUDGET_FILE), 'utf8')) as {
  documentMax: number;
  routes: Record<string, RouteBudget>;
};

/** The pages the benchmarks measure, each kind of page the site renders once. */
const BENCH_ROUTES = [
  '/',
  '/programme',
  '/evenements',
  '/residences',
  '/residences/axonberg',
  '/label',
  '/a-propos',
  '/emissions',
  '/emissions/axonberg-synapses-11',
  '/artistes/basic-channel',
  '/soutenir',
  '/proposer-une-emission',
  '/label/envoyer-une-demo',
  '@event',
];

test('the budget names every kind of page, and no document past one round trip', () => {
  expect(Object.keys(budget.routes).sort()).toEqual([...BENCH_ROUTES].sort());
  expect(budget.documentMax).toBe(DOCUMENT_MAX);
  for (const [route, limits] of Object.entries(budget.routes)) {
    expect(limits.document, route).toBeLessThanOrEqual(DOCUMENT_MAX);
  }
});

for (const [route, limits] of Object.entries(budget.routes)) {
  test(`${route}: its first screen within its budget`, async ({ baseURL }) => {
    const origin = baseURL ?? '';
    const path = await resolveRoute(origin, route);
    expect(path, 'the site has a page for it').not.toBeNull();
    const measured = await firstScreen(origin, path ?? '/');
    expect(measured.document, `${route}: its document, compressed`).toBeLessThanOrEqual(limits.document);
    for (const [group, said] of [
      ['beforePaint', 'before the paint'],
      ['afterPaint', 'after the paint'],
    ] as const) {
      const { requests, bytes } = measured[group];
      const list = requests.map((r) => `${r.path} (${String(r.bytes)})`).join(', ');
      expect(requests.length, `${route}: ${said}, ${list}`).toBeLessThanOrEqual(limits[group].requests);
      expect(bytes, `${route}: ${said}, ${list}`).toBeLessThanOrEqual(limits[group].bytes);
    }
  });
}
