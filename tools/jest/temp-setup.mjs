// The tests' temporary files in one folder of the run's own (jest's globalSetup, in jest.config.ts
// and jest.deploy.config.ts; temp-teardown.mjs removes it): a test server's content, a figures'
// folder, a Redis's or an Icecast's files are made under the system's temporary folder (os.tmpdir())
// by hundreds of tests, and none of them is to stay on the machine after the run. The workers,
// started after this setup, inherit TMPDIR.
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'collectif-tests-'));
  // Others may pass through it, as through the system's folder, but not list it: Icecast, started as
  // root by the timeline's tests, works as `nobody` in a folder of its own inside.
  chmodSync(folder, 0o711);
  process.env.COLLECTIF_TESTS_TMPDIR = folder;
  process.env.TMPDIR = folder;
}
