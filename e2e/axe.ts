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

interface Violation {
  rule: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** Runs axe on the whole document and returns its violations, compact enough to read in a failure. */
export async function axeViolations(page: Page): Promise<Violation[]> {
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

export async function expectNoViolations(page: Page, state: string): Promise<void> {
  expect(await axeViolations(page), `axe violations: ${state}`).toEqual([]);
}
