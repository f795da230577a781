import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ALONE, WRITES_OR_STARTS } from '../e2e/phases.mjs';
import { root } from './parts.mjs';

// The browser tests run two at a time unless a spec is in ALONE (e2e/phases.mjs, docs/testing.md
// « The run's time »): a spec that writes to the shared server or starts processes, left out of it,
// would change or starve the page another spec looks at.
const specs = readdirSync(join(root, 'e2e', 'tests')).filter((name) => name.endsWith('.spec.ts'));

describe("the browser tests' phases", () => {
  it('lists only specs that exist', () => {
    expect(ALONE.filter((name) => !specs.includes(name))).toEqual([]);
  });

  it('runs every spec that writes to the shared server or starts processes alone', () => {
    const beside = specs.filter(
      (name) => !ALONE.includes(name) && WRITES_OR_STARTS.test(readFileSync(join(root, 'e2e', 'tests', name), 'utf8')),
    );
    expect(beside).toEqual([]);
  });

  it('knows a spec that writes when it sees one', () => {
    expect(WRITES_OR_STARTS.test("await page.request.post('/api/admin/live', { data: { live } });")).toBe(true);
    expect(WRITES_OR_STARTS.test("import { editor } from '../editor';")).toBe(true);
    expect(WRITES_OR_STARTS.test("const PUSH_PATH = '/api/push/subscription';")).toBe(true);
    expect(WRITES_OR_STARTS.test("await expect(page.getByRole('heading')).toBeVisible();")).toBe(false);
  });
});
