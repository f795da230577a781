// @ts-check
// The first screen's budget (docs/first-screen.md, « The first screen's budget »): what the browser
// tests hold every page to (tests/first-screen.spec.ts), and how `node bench/first-screen.mjs
// --write-budget` makes it from measured figures.

/** The budget, checked in: raising it is a commit that says why. */
export const BUDGET_FILE = 'e2e/first-screen.budget.json';

/**
 * No page's document may pass this, compressed, whatever its own budget: with its headers (about
 * 1.4 KB) it must fit in TCP's first window (10 segments, about 14.6 KB), one round trip on a phone's
 * network. Past it, Lighthouse's slow 4G counts one more round trip (150 ms) before the page's image
 * is even asked for.
 */
export const DOCUMENT_MAX = 13_000;

/** A page of the budget named by what it is rather than by an address: the first event's page. */
export const EVENT_ROUTE = '@event';

/** Each figure's headroom over what was measured: bytes grow a little with the content of the day. */
export const HEADROOM = 0.03;

/**
 * A route's address on a running site: itself, or for `@event` the first event's page (from
 * /api/events); null when the site has no event.
 * @param {string} origin
 * @param {string} route
 * @returns {Promise<string | null>}
 */
export async function resolveRoute(origin, route) {
  if (route !== EVENT_ROUTE) return route;
  const events = /** @type {{ coming: { slug: string }[]; past: { slug: string }[] }} */ (
    await (await fetch(`${origin}/api/events`)).json()
  );
  const first = [...events.coming, ...events.past][0];
  return first === undefined ? null : `/evenements/${first.slug}`;
}

/** @typedef {{ requests: number; bytes: number }} Group */
/** @typedef {{ document: number; beforePaint: Group; afterPaint: Group }} RouteBudget */

/** @param {number} bytes */
const withHeadroom = (bytes) => Math.ceil((bytes * (1 + HEADROOM)) / 100) * 100;

/**
 * The budget of measured figures: bytes with their headroom (the document never past DOCUMENT_MAX),
 * request counts as they are (one more request is a decision, not a drift).
 * @param {Record<string, { document: number; beforePaint: { requests: unknown[]; bytes: number }; afterPaint: { requests: unknown[]; bytes: number } }>} figures
 * @returns {{ documentMax: number; routes: Record<string, RouteBudget> }}
 */
export function budgetOf(figures) {
  /** @type {Record<string, RouteBudget>} */
  const routes = {};
  for (const [route, f] of Object.entries(figures)) {
    routes[route] = {
      document: Math.min(withHeadroom(f.document), DOCUMENT_MAX),
      beforePaint: { requests: f.beforePaint.requests.length, bytes: withHeadroom(f.beforePaint.bytes) },
      afterPaint: { requests: f.afterPaint.requests.length, bytes: withHeadroom(f.afterPaint.bytes) },
    };
  }
  return { documentMax: DOCUMENT_MAX, routes };
}
