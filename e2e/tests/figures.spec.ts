import type { APIRequestContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expectNoViolations } from '../axe';
import { editorApi, localhost, signUp } from '../editor';
import { expect, gotoPage, test } from '../fixtures';
import { player } from '../screen';

// The audience figures in Chromium (docs/figures.md, « In the browser »; docs/content.md, « Mes
// chiffres »): a resident signed in with a passkey sees their residence's figures after plays made
// here (one by the player itself, its beacon seen leaving, and five more as five other visitors, so
// that a figure reaches the threshold); another residence's are refused (403); the month's CSV
// downloads; an admin turns « N à l'écoute » on and the player says it once five visitors listen.
// At a phone's and a desktop's width, checked by axe, with screenshots for a person to look at.

const RESIDENCE = 'axonberg';
const OTHER = 'la-brume';

interface Episode {
  slug: string;
  artist: string;
  show: string;
}

async function episodeOf(page: Page, residence: string): Promise<Episode> {
  const { items } = (await (await page.request.get(`/api/episodes?residence=${residence}`)).json()) as {
    items: Episode[];
  };
  const first = items[0];
  if (first === undefined) throw new Error(`aucune émission de ${residence}`);
  return first;
}

/** A beacon as another visitor's browser would send it: its own user agent, text/plain, no cookie. */
async function beaconAs(request: APIRequestContext, visitor: string, body: object): Promise<void> {
  const response = await request.post(localhost('/api/figures/beacon'), {
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': `Visiteur ${visitor} (e2e)` },
    data: JSON.stringify(body),
  });
  expect(response.status()).toBe(204);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const audience = (page: Page) => page.getByRole('region', { name: 'Audience' });

for (const width of [390, 1280]) {
  test.describe(`the audience figures at ${String(width)} px`, () => {
    test.slow();
    test.use({ viewport: { width, height: width < 600 ? 844 : 900 } });

    test('a resident sees their figures after plays, is refused another residence’s, and downloads the month', async ({
      page,
    }, testInfo) => {
      const episode = await episodeOf(page, RESIDENCE);
      // A play by the site's player: its beacon leaves with the episode and the second it starts at.
      await gotoPage(page, `/emissions/${episode.slug}?t=12`);
      const beacon = page.waitForRequest(
        (request) => request.url().endsWith('/api/figures/beacon') && request.postData()?.includes('"replay"') === true,
      );
      await page.getByRole('button', { name: 'Écouter à partir de 0:12' }).click();
      const sent = await beacon;
      expect(JSON.parse(sent.postData() ?? '')).toEqual({ kind: 'replay', episode: episode.slug, second: 12 });
      // Its cost to the visitor, as Chromium counts it (docs/figures.md, « In the browser »).
      const sizes = await sent.sizes();
      testInfo.annotations.push({ type: 'beacon bytes', description: JSON.stringify(sizes) });
      expect(sizes.requestBodySize).toBeLessThan(100);
      expect(sizes.responseBodySize).toBe(0);
      // Five more visitors start it at the same moment.
      for (const visitor of ['a', 'b', 'c', 'd', 'e']) {
        await beaconAs(page.request, visitor, { kind: 'replay', episode: episode.slug, second: 12 });
      }

      await signUp(page, ['--role', 'residence', '--residence', RESIDENCE], 'chiffres');
      const part = audience(page);
      const replays = part.getByRole('table', { name: /Réécoutes des épisodes/ });
      const row = replays.getByRole('row', { name: new RegExp(`^${escaped(`${episode.artist} — ${episode.show}`)}`) });
      await expect(row).toBeVisible();
      // Six visitors started it: a number; fewer than five reached its end: « moins de 5 ».
      await expect(row.getByRole('cell').first()).toHaveText(/^\d+$/);
      await expect(row.getByRole('cell').last()).toHaveText('moins de 5');
      // The moment to its step of 10 s (docs/figures.md), started six times: a number.
      const moment = part
        .getByRole('table', { name: /moments les plus lancés/ })
        .getByRole('row', { name: new RegExp(`^${escaped(`${episode.artist} — ${episode.show}`)} 0:10 `) });
      await expect(moment.getByRole('cell').last()).toHaveText(/^\d+$/);
      await expect(part.getByRole('table', { name: 'Les 12 dernières semaines' })).toBeVisible();
      await expectNoViolations(page, 'a resident’s audience');
      await part.screenshot({ path: testInfo.outputPath('audience.png') });

      // Another residence's figures: refused by the site.
      const refused = await editorApi(page.context().request).get(`/api/editor/figures/audience?residence=${OTHER}`);
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toBe(
        'Ces chiffres ne sont pas ceux de votre résidence.',
      );

      // The month as CSV, downloaded with the volunteer's session.
      const download = page.waitForEvent('download');
      await part.getByRole('link', { name: 'Télécharger le mois (CSV)' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^chiffres-${RESIDENCE}-\\d{4}-\\d{2}\\.csv$`));
      const csv = readFileSync(await file.path(), 'utf8');
      // After the byte-order mark by which spreadsheets read it as UTF-8.
      expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe(
        'jour;résidence;pic du direct;moyenne du direct;écoutes en replay;écoutes depuis les lecteurs intégrés;écoutes à 25 %;à 50 %;à 75 %;à 100 %',
      );
      // A day of their residence (named by its show) with its replays, five and more: a number.
      expect(csv).toMatch(/\n\d{4}-\d{2}-\d{2};Synapses;[^;\n]+;[^;\n]+;\d+;/);
    });

    test('« Ne pas être compté » on About: the player then sends nothing, and again once unchecked', async ({
      page,
    }, testInfo) => {
      const beacons: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/figures/beacon')) beacons.push(request.postData() ?? '');
      });
      // Revealed blocks shown at once (docs/interface.md): axe measures their colours, not a fade.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await gotoPage(page, '/a-propos#confidentialite');
      const section = page.getByRole('region', { name: 'Confidentialité et mesure d’audience' });
      await expect(section).toContainText('aucun cookie, aucune adresse conservée');
      await expect(section).toContainText('25 mois au plus');
      const choice = section.getByRole('checkbox', { name: 'Ne pas être compté' });
      await choice.check();
      await expect(section.getByRole('status')).toHaveText(
        'Ce navigateur n’est plus compté : le lecteur n’envoie plus rien.',
      );
      await expectNoViolations(page, 'About’s « Confidentialité »');
      await section.screenshot({ path: testInfo.outputPath('confidentialite.png') });

      const episode = await episodeOf(page, RESIDENCE);
      await gotoPage(page, `/emissions/${episode.slug}`);
      await page.getByRole('button', { name: 'Écouter', exact: true }).click();
      await expect
        .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0))
        .toBeGreaterThan(1);
      expect(beacons).toEqual([]);

      // Kept on the device: a reload of About says so, and unchecking counts the next replay.
      await gotoPage(page, '/a-propos#confidentialite');
      await expect(choice).toBeChecked();
      await choice.uncheck();
      await gotoPage(page, `/emissions/${episode.slug}`);
      await page.getByRole('button', { name: 'Écouter', exact: true }).click();
      await expect.poll(() => beacons.length).toBeGreaterThan(0);
      expect(JSON.parse(beacons[0] ?? '')).toMatchObject({ kind: 'replay', episode: episode.slug });
    });

    test('« N à l’écoute » shows in the live player once an admin turned it on', async ({
      page,
      browser,
    }, testInfo) => {
      await signUp(page, ['--role', 'admin'], 'ecoute');
      const toggle = audience(page).getByRole('checkbox', { name: 'Afficher « N à l’écoute » pendant le direct' });
      await expect(toggle).toBeVisible();
      // Off unless a run stopped before turning it off again.
      if (!(await toggle.isChecked())) {
        await toggle.check();
        await audience(page).getByRole('button', { name: 'Publier' }).click();
        await expect(audience(page).getByText(/le lecteur en tient compte/)).toBeVisible();
      }
      await expectNoViolations(page, 'the admin’s audience and setting');
      await audience(page).screenshot({ path: testInfo.outputPath('audience-admin.png') });

      // A visitor listens live; five others listen too (their beacons every two minutes).
      const visitor = await browser.newPage({ viewport: { width, height: width < 600 ? 844 : 900 } });
      await gotoPage(visitor, '/');
      await visitor.getByRole('button', { name: 'Stream : ouvrir le lecteur' }).click();
      await expect(player(visitor).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
      for (const other of ['f', 'g', 'h', 'i', 'j']) await beaconAs(page.request, other, { kind: 'live' });
      // Sampled once a period (5 s for these tests, playwright.config.ts), then carried by the live channel.
      await expect(player(visitor).getByText(/^\d+ à l’écoute$/)).toBeVisible({ timeout: 30_000 });
      await expectNoViolations(visitor, 'the live player with its listeners');
      await player(visitor).screenshot({ path: testInfo.outputPath('a-l-ecoute.png') });
      await visitor.close();

      // Off again, as other specs expect the player (the browser tests share one content folder).
      await toggle.uncheck();
      await audience(page).getByRole('button', { name: 'Publier' }).click();
      await expect(audience(page).getByText(/le lecteur en tient compte/)).toBeVisible();
    });
  });
}
