import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The browser tests' temporary files in one folder of the run's own (playwright.config.ts,
 * `globalSetup`), as jest's are (docs/testing.md, « Hermetic browser tests »): the workers, started
 * after this, inherit TMPDIR, and what the specs make there (copies of the site, the servers they
 * start and their content, the browsers' profiles) goes with the folder when the run ends. The
 * shared server's own folder is web-server.mjs's.
 */
export default function globalSetup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'collectif-e2e-'));
  process.env.TMPDIR = folder;
  return () => {
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
