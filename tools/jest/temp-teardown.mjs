// Removes the run's temporary folder and everything the tests left in it (temp-setup.mjs).
import { rmSync } from 'node:fs';

export default function teardown() {
  const folder = process.env.COLLECTIF_TESTS_TMPDIR;
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}
