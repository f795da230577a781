// @ts-check
// The browser tests' two phases (docs/testing.md, « The run's time »). Every spec shares one server,
// its content folder and its settings. Most of them only read it, and run two at a time. The others
// run after them, one at a time:
// - a spec that changes what the server shares (content, the live status, the settings, the support
//   and audience counts) would change a page that another spec looks at;
// - a spec that starts processes of its own (a build, the dev servers) takes both cores for a while.
// A spec whose server of its own mostly waits (a site recording the live, e2e/timeshift-site.ts) runs
// in the first phase.
// scripts/e2e-phases.test.mjs holds each spec that is not listed here to WRITES_OR_STARTS.

/** The specs of the second phase. */
export const ALONE = [
  'admin.spec.ts',
  'api.spec.ts',
  'artist-merges.spec.ts',
  'content.spec.ts',
  'contract.spec.ts',
  'dev.spec.ts',
  'editor-origin.spec.ts',
  'figures.spec.ts',
  'live-block.spec.ts',
  'proposals.spec.ts',
  'push.spec.ts',
  'support.spec.ts',
  'tracklist-editor.spec.ts',
];

/**
 * What marks a spec that writes to the shared server or starts processes: the admin's token, an
 * editor's helpers, a write request (fetch or Playwright's), a push subscription, a child process.
 */
export const WRITES_OR_STARTS =
  /e2e-jeton-admin|ADMIN_TOKEN|\/api\/(?:editor|admin|push\/subscription)|from '\.\.\/editor'|request\.(?:post|put|delete|patch)\(|method: '(?:POST|PUT|DELETE|PATCH)'|spawn\(|execFile/;
