// The tests' temporary files in one folder of the run's own (jest's globalSetup, in jest.config.ts
// and jest.deploy.config.ts; temp-teardown.mjs removes it): a test server's content, a figures'
// folder, a Redis's or an Icecast's files are made under the system's temporary folder (os.tmpdir())
// by hundreds of tests, and none of them is to stay on the machine after the run. The workers,
// started after this setup, inherit TMPDIR.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'collectif-tests-'));
  process.env.COLLECTIF_TESTS_TMPDIR = folder;
  process.env.TMPDIR = folder;
}
