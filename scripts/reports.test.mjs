import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { firstLine, readReports } from './reports.mjs';

// npm test's last lines (scripts/reports.mjs): the counts, and each failed test named with the first
// line of what it said, from the reports jest and Playwright write.

const root = '/projet';
const dir = mkdtempSync(join(tmpdir(), 'reports-'));
const write = (name, value) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

const jestReport = write('jest.json', {
  numPassedTests: 3,
  numFailedTests: 1,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [
    {
      name: '/projet/server/src/a.test.ts',
      status: 'failed',
      assertionResults: [
        { status: 'passed', fullName: 'a passes' },
        {
          status: 'failed',
          fullName: 'pages › are in order',
          failureMessages: ['\u001b[2mexpect(\u001b[22mreceived).toEqual(expected)\n\nArray […]'],
        },
      ],
    },
    {
      name: '/projet/server/src/b.test.ts',
      status: 'failed',
      message: '\n  ● Test suite failed to run\n\n    SyntaxError',
      assertionResults: [],
    },
    { name: '/projet/server/src/c.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'c' }] },
  ],
});
const e2eReport = write('e2e.json', {
  stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 0 },
  suites: [
    {
      title: 'timeshift.spec.ts',
      specs: [],
      suites: [
        {
          title: 'the timeline',
          specs: [
            {
              title: 'goes back',
              file: 'timeshift.spec.ts',
              line: 64,
              tests: [
                {
                  projectName: 'téléphone',
                  status: 'flaky',
                  results: [
                    { status: 'failed', error: { message: 'Error: heard 21.7 s\nmore' } },
                    { status: 'passed' },
                  ],
                },
                { projectName: 'chromium', status: 'expected', results: [{ status: 'passed' }] },
              ],
            },
            {
              title: 'stops',
              file: 'timeshift.spec.ts',
              line: 90,
              tests: [
                {
                  projectName: 'chromium',
                  status: 'unexpected',
                  results: [{ status: 'timedOut', error: { message: 'Timeout' } }],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
});

describe("npm test's last lines", () => {
  it('name each failed test, its file from the project and its first line of message', () => {
    const { failures } = readReports({ jest: [['jest', jestReport]], e2e: e2eReport }, root);
    expect(failures).toEqual([
      'jest · server/src/a.test.ts › pages › are in order : expect(received).toEqual(expected)',
      'jest · server/src/b.test.ts : ● Test suite failed to run',
      'navigateur · timeshift.spec.ts:64 [téléphone] the timeline › goes back (réussi au second essai) : Error: heard 21.7 s',
      'navigateur · timeshift.spec.ts:90 [chromium] the timeline › stops (échoué) : Timeout',
    ]);
  });

  it('count a test passed only on its second attempt as failed', () => {
    const { counts, passed, failed, skipped } = readReports({ jest: [['jest', jestReport]], e2e: e2eReport }, root);
    expect({ passed, failed, skipped }).toEqual({ passed: 8, failed: 3, skipped: 0 });
    expect(counts).toEqual(['jest : 3 réussis, 1 échoués, 0 ignorés', 'navigateur : 5 réussis, 2 échoués, 0 ignorés']);
  });

  it('leave out a report that was not written (a stage that did not run)', () => {
    const result = readReports(
      { jest: [['déploiement', join(dir, 'absent.json')]], e2e: join(dir, 'absent-e2e.json') },
      root,
    );
    expect(result).toEqual({ counts: [], failures: [], passed: 0, failed: 0, skipped: 0 });
  });

  it('keep a message of a long line to 300 characters', () => {
    expect(firstLine(`\n\n  ${'x'.repeat(400)}\nnext`)).toBe('x'.repeat(300));
    expect(firstLine(undefined)).toBe('');
  });
});
