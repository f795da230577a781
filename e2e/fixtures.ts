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
