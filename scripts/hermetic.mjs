// @ts-check
// What every test process runs with, whatever the contributor's machine (docs/testing.md,
// « Hermetic browser tests »): the time zone and the locale. Production servers commonly run in
// UTC, and the pages' dates name Europe/Paris explicitly, so a date that depends on the process's
// zone shows up as a wrong date in a test here, not only on a visitor's screen. The browser's own
// zone and language are Playwright's (`timezoneId`, `locale` in e2e/playwright.config.ts).
export const HERMETIC_PROCESS_ENV = /** @type {const} */ ({ TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' });

/** Applies HERMETIC_PROCESS_ENV to this process, and so to every process it starts. */
export function useHermeticProcessEnv() {
  Object.assign(process.env, HERMETIC_PROCESS_ENV);
}
