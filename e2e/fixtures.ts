import { test as base, expect, type Page } from '@playwright/test';

/**
 * Hosts this machine cannot reach (Twitch, calendar, maps, chat): blocked on purpose in every test.
 * The site's own are the loopback's: 127.0.0.1, `localhost` and its sub-domains (RFC 6761), the
 * editor's own origin `edition.localhost` among them.
 */
export const THIRD_PARTY = /^https?:\/\/(?!127\.0\.0\.1[:/]|(?:[a-z0-9-]+\.)*localhost[:/])/;

interface Fixtures {
  /** Uncaught errors of the page; every test fails if one happened. */
  pageErrors: string[];
}

export const test = base.extend<Fixtures>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context }, use) => {
    await context.route(THIRD_PARTY, (route) => route.abort('blockedbyclient'));
    // The areas the shell has said are interactive (the `collectif:zone-interactive` event of
    // shared/src/boot.ts, AREA_READY_EVENT), for `untilInteractive`.
    await context.addInitScript(() => {
      const zones: string[] = [];
      (window as { __interactiveZones?: string[] }).__interactiveZones = zones;
      document.addEventListener('collectif:zone-interactive', (event) => {
        zones.push(String((event as CustomEvent<unknown>).detail));
      });
    });
    await use(context);
  },
});

export { expect };

/** What React says when the server's HTML and the first render in the browser differ. */
export const HYDRATION_TROUBLE =
  /hydrat|did not match|server rendered|Minified React error #(418|419|421|422|423|425)/i;

/** Collects the console's errors and warnings while a test runs. */
export function consoleTrouble(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
  });
  return messages;
}

/**
 * Waits until an area of the page (`player`, `page`, `shell`) has its handlers: a raw DOM event sent
 * to it before then, as a partner's script could send one, finds no listener and is not kept (only
 * the parts' own requests, through the event bus, wait for the player: shared/src/events/bus.ts).
 */
export async function untilInteractive(page: Page, zone: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          (name) => (window as { __interactiveZones?: string[] }).__interactiveZones?.includes(name) ?? false,
          zone,
        ),
      {
        timeout: 15_000,
        message: `la zone « ${zone} » devient interactive`,
      },
    )
    .toBe(true);
}

/**
 * Waits until the shell and the page's remote have rendered and React has taken over the navbar and
 * the page (a page rendered on the server is on screen before its scripts run: docs/rendering.md).
 */
export async function gotoPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('#contenu')).not.toContainText('Chargement ...', { timeout: 15_000 });
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          ['header.navbar', '#contenu > *'].every((selector) => {
            const node = document.querySelector(selector);
            return node !== null && Object.keys(node).some((key) => key.startsWith('__reactFiber'));
          }),
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
}
