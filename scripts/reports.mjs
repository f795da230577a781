// What npm test says at its end (scripts/test.mjs): each kind of test's counts, read from the reports
// jest and Playwright write, and each failed test by name with its message's first line, said again
// after every step's output, where a log kept only in part (its end) still shows them.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** The first line of a failure's message, without the terminal's colours, at most 300 characters. */
export function firstLine(message) {
  const line = String(message ?? '')
    // eslint-disable-next-line no-control-regex -- the terminal's colour codes start with ESC
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .find((text) => text.trim() !== '');
  return (line ?? '').trim().slice(0, 300);
}

/**
 * The reports that exist among `jest` (label → jest's --json file) and `e2e` (Playwright's JSON
 * report), with paths said from `root`. A flaky browser test (passed on its second attempt) counts
 * as failed: no test may need a second chance (docs/testing.md, « A failing test fails the run »).
 */
export function readReports({ jest = [], e2e }, root) {
  const counts = [];
  const failures = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const [label, file] of jest) {
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const ignored = report.numPendingTests + report.numTodoTests;
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += ignored;
    counts.push(`${label} : ${report.numPassedTests} réussis, ${report.numFailedTests} échoués, ${ignored} ignorés`);
    for (const result of report.testResults ?? []) {
      const where = relative(root, result.name);
      const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) {
        failures.push(`${label} · ${where} › ${test.fullName} : ${firstLine(test.failureMessages?.[0])}`);
      }
      // A file that failed as a whole (a hook, a syntax error) has no failed test of its own.
      if (result.status === 'failed' && failedTests.length === 0) {
        failures.push(`${label} · ${where} : ${firstLine(result.message)}`);
      }
    }
  }
  if (e2e && existsSync(e2e)) {
    const { stats, suites } = JSON.parse(readFileSync(e2e, 'utf8'));
    // Playwright's report: suites of files and describes, each holding specs, each run in projects.
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
          const error = test.results?.find((result) => result.status !== 'passed')?.error?.message;
          const how = test.status === 'flaky' ? 'réussi au second essai' : 'échoué';
          failures.push(
            `navigateur · ${spec.file}:${String(spec.line)} [${test.projectName}] ${[...titles, spec.title].join(' › ')} (${how}) : ${firstLine(error)}`,
          );
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of suites ?? []) walk(suite, []);
    const unexpected = stats.unexpected + stats.flaky;
    passed += stats.expected;
    failed += unexpected;
    skipped += stats.skipped;
    counts.push(`navigateur : ${stats.expected} réussis, ${unexpected} échoués, ${stats.skipped} ignorés`);
  }
  return { counts, failures, passed, failed, skipped };
}
