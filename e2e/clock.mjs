// @ts-check
/**
 * The instant the browser tests' server lives at (server-clock.mjs, docs/testing.md): a Sunday
 * morning in Paris, before the day's shows. The screenshot tests fix the browser's clock at it too,
 * and the first screen's budget is measured at it (bench/first-screen.mjs).
 */
export const E2E_NOW = '2026-11-22T10:00:00.000Z';
