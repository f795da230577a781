import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// axe-core in the page, as every accessibility check of the browser tests runs it.

/** axe-core's browser build, evaluated in the page (an injected <script> would meet the site's CSP). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** Beyond the tags: tap targets of at least 24 px (WCAG 2.2), which Lighthouse checks too. */
const AXE_EXTRA_RULES = ['target-size'];

interface AxeOptions {
  /** false for a page opened with `javaScriptEnabled: false`: axe alone runs there. */
  scripts?: boolean;
}

interface Violation {
  rule: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe on the whole document and returns its violations, compact enough to read in a failure.
 * A block that fades in is a state on its way: axe waits until every transition that ends has ended.
 * Measured mid-fade, a heading at 2 % opacity has a contrast of 1.02 with the page.
 */
export async function axeViolations(page: Page, { scripts = true }: AxeOptions = {}): Promise<Violation[]> {
  if (scripts) return audit(page);
  // A page opened without JavaScript runs no timer, and axe needs them. The same address is opened
  // again where scripts run, its document as the server sends it under a policy that lets none of
  // the page's own scripts run (`script-src 'none'`): axe reads what a visitor without JavaScript
  // reads. One difference: a <noscript> is not shown there.
  const browser = page.context().browser();
  if (browser === null) throw new Error('axe sans JavaScript : pas de navigateur');
  // The test runner gives a new context its own options (javaScriptEnabled: false among them).
  const context = await browser.newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
  try {
    const again = await context.newPage();
    const address = page.url();
    await again.route(
      (url) => url.href === address,
      async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          headers: { ...response.headers(), 'content-security-policy': "script-src 'none'" },
        });
      },
    );
    await again.goto(address);
    return await audit(again);
  } finally {
    await context.close();
  }
}

async function audit(page: Page): Promise<Violation[]> {
  await page.evaluate(async () => {
    // Two frames, so that a block that has just come into view has started its fade.
    for (let frame = 0; frame < 2; frame += 1) await new Promise(requestAnimationFrame);
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, extra }) => {
      const { axe } = window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<AxeResults> };
      };
      // axe runs one audit at a time: the second starts when the first is done.
      const byTag = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      const byRule = await axe.run(document, { runOnly: { type: 'rule', values: extra }, resultTypes: ['violations'] });
      return [...byTag.violations, ...byRule.violations].map((v) => ({
        rule: v.id,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
    },
    { tags: AXE_TAGS, extra: AXE_EXTRA_RULES },
  );
}

export async function expectNoViolations(page: Page, state: string, options: AxeOptions = {}): Promise<void> {
  expect(await axeViolations(page, options), `axe violations: ${state}`).toEqual([]);
}
