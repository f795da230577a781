import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { expect, consoleTrouble, gotoPage, test } from '../fixtures';
import { startSiteCopy, type SiteCopy } from '../site-copy';

/**
 * A remote built against the previous minor of the contract runs with the current shell
 * (docs/contract.md, « The shared package »): mf-about is built again with CONTRACT_VERSION set to
 * the minor before shared/package.json's (a test-only setting), into a copy of the built site that
 * a second server serves (DIST_ROOT), beside the shell, player, radio and label as `npm run build`
 * made them.
 */

const ROOT = join(__dirname, '..', '..');

interface PartJson {
  name: string;
  contract: string;
  builtAt: string;
  commit: string | null;
}

const current = semver.parse(
  (JSON.parse(readFileSync(join(ROOT, 'shared', 'package.json'), 'utf8')) as { version: string }).version,
);
if (current === null) throw new Error('shared/package.json : version illisible');
/** The minor before the current one; right after a major, its first version (the oldest a remote of this major may need). */
const previous = `${String(current.major)}.${String(Math.max(current.minor - 1, 0))}.0`;

let site: SiteCopy;

test.beforeAll(async () => {
  // One build of a remote (its browser and server containers) on a shared machine.
  test.setTimeout(180_000);
  site = await startSiteCopy({}, async (distRoot) => {
    rmSync(join(distRoot, 'mf-about'), { recursive: true, force: true });
    await promisify(execFile)(
      process.execPath,
      ['e2e/build-part.mjs', 'mf-about', join(distRoot, 'mf-about', 'dist')],
      {
        cwd: ROOT,
        env: { ...process.env, CONTRACT_VERSION: previous },
      },
    );
  });
});

test.afterAll(() => site.stop());

test('the deploy accepts the remote: the shell provides what it needs', async () => {
  const shell = JSON.parse(readFileSync(join(site.distRoot, 'shell', 'dist', 'part.json'), 'utf8')) as PartJson;
  const answer = await fetch(`${site.origin}/mf-about/part.json`);
  expect(answer.status).toBe(200);
  // Kept under the same name from one build to the next, so never cached without asking.
  expect(answer.headers.get('cache-control')).toBe('no-cache');
  const about = (await answer.json()) as PartJson;

  expect(shell).toMatchObject({ name: 'shell', contract: current.version });
  expect(about).toMatchObject({ name: 'about', contract: `^${previous}` });
  expect(semver.satisfies(shell.contract, about.contract)).toBe(true);

  // What the federation runtime reads: the remote's requirement, beside its manifest.
  const manifest = (await (await fetch(`${site.origin}/mf-about/mf-manifest.json`)).json()) as {
    shared: { name: string; requiredVersion: string; singleton: boolean }[];
  };
  expect(manifest.shared.find((entry) => entry.name === '@collectif/shared')).toMatchObject({
    singleton: true,
    requiredVersion: `^${previous}`,
  });
});

test('its page works with the current shell', async ({ page }) => {
  const trouble = consoleTrouble(page);
  const remoteFiles: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${site.origin}/mf-about/`) && response.ok()) remoteFiles.push(response.url());
  });

  await gotoPage(page, `${site.origin}/a-propos`);
  const content = page.locator('#contenu');
  await expect(content.getByRole('heading', { level: 1 })).toHaveText('À propos');
  await expect(content.getByRole('heading', { name: 'Le collectif' })).toBeVisible();
  expect(remoteFiles).toContain(`${site.origin}/mf-about/remoteEntry.js`);

  // Its own helpers (@collectif/shared/ui, bundled with it) at work: the studio's map behind its facade.
  const studio = content.getByRole('region', { name: 'Le studio', exact: true });
  await expect(studio.locator('iframe')).toHaveCount(0);
  await studio.getByRole('button', { name: 'Afficher le plan' }).click();
  await expect(studio.locator('iframe')).toHaveCount(1);

  // A link of the shell's menu still works from there, through the one router of the singleton.
  await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Label' }).click();
  await expect(page).toHaveURL(`${site.origin}/label`);
  await expect(content.getByRole('heading', { level: 1 })).toBeVisible();

  // The singleton met the remote's requirement: the federation runtime warned of nothing.
  expect(trouble.filter((message) => message.includes('does not satisfy'))).toEqual([]);
});
