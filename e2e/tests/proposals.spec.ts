import type { Page } from '@playwright/test';
import { expectNoViolations } from '../axe';
import { editor, signUp } from '../editor';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { NUMBER_PATTERN } from '@collectif/shared/proposals/number';

// « Proposer une émission » in Chromium (docs/proposals.md, « The pages »), against the tests'
// server (no SMTP: the proposals are kept, no e-mail leaves, and « Merci ! » says so). It writes
// proposals, so it runs alone (e2e/phases.mjs), at a phone's width and a desktop's. The tests'
// server lets one network send more a day than a real one (playwright.config.ts); the daily bounds
// themselves are the server's tests' (server/src/api/routes/proposals.test.ts).

const content = (page: Page) => page.locator('#contenu');

/**
 * Without JavaScript, when the form's page gave its single-use token, at the latest: once the page
 * is shown, the test's own clock; and the token is the visitor's own cookie, for the proposal routes
 * only, never sent with another site's post (docs/proposals.md, « Spam »). The server's clock runs at
 * the same pace (e2e/server-clock.mjs), from another start.
 */
async function served(page: Page): Promise<number> {
  await expect(content(page).getByRole('heading', { level: 1 })).toBeVisible();
  const cookie = (await page.context().cookies()).find((each) => each.name === 'proposition');
  expect(cookie).toMatchObject({ path: '/api/proposals', httpOnly: true, sameSite: 'Strict' });
  return Date.now();
}

/**
 * With JavaScript, when the visitor began, at the latest: the page asks its challenge (and its signed
 * `startedAt`) on the form's first focus; resolved once the server answered it.
 */
function begun(page: Page): Promise<number> {
  return page
    .waitForResponse((response) => response.url().endsWith('/api/proposals/challenge') && response.ok())
    .then(() => Date.now());
}

/** The server refuses a form sent under 3 s after it was made (docs/proposals.md, « Spam »). */
async function oldEnough(since: number): Promise<void> {
  await expect.poll(() => Date.now() - since, { timeout: 10_000 }).toBeGreaterThan(3_200);
}

async function fill(page: Page, links: string): Promise<void> {
  const form = content(page);
  await form.getByLabel('Nom de l’émission').fill('Les Ondes Lentes');
  await form.getByLabel('Qui la fait').fill('Camille et Sacha');
  await form.getByLabel('Le style, en quelques mots').fill('ambient, field recordings');
  await form.getByLabel('Liens pour écouter').fill(links);
  await form.getByLabel('À quel rythme, et quand pourriez-vous jouer ?').fill('un mardi sur deux, en soirée');
  await form.getByLabel('Votre adresse e-mail').fill('camille@example.org');
  await form.getByLabel('Un mot pour l’équipe (facultatif)').fill('<b>Une heure</b> par mois.');
}

const GOOD_LINKS = 'https://soundcloud.com/ondes-lentes/un\nhttps://www.mixcloud.com/ondes-lentes/deux/';

/** « Merci ! »'s address on a site that sends no e-mail (docs/proposals.md, « E-mail »). */
const thanks =
  (path: string, letter: 'E' | 'D') =>
  ({ pathname, searchParams }: URL): boolean =>
    pathname === `${path}/merci` &&
    NUMBER_PATTERN.test(searchParams.get('numero') ?? '') &&
    searchParams.get('numero')?.[0] === letter &&
    searchParams.get('courriel') === 'non' &&
    [...searchParams.keys()].length === 2;

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
])
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height } });

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });

      test('a form refused comes back with what was typed and the fault beside its field, then is accepted', async ({
        page,
      }) => {
        await page.goto('/proposer-une-emission');
        await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Proposer une émission');
        let made = await served(page);
        await fill(page, 'http://exemple.org/son\nhttps://www.mixcloud.com/ondes-lentes/deux/');
        await oldEnough(made);
        await content(page).getByRole('button', { name: 'Envoyer la proposition' }).click();

        await expect(page).toHaveURL(/\/proposer-une-emission\?brouillon=/);
        made = await served(page);
        const links = content(page).getByLabel('Liens pour écouter');
        await expect(links).toHaveAttribute('aria-invalid', 'true');
        await expect(links).toHaveAccessibleDescription(/Lien n° 1/);
        await expect(links).toHaveValue('http://exemple.org/son\nhttps://www.mixcloud.com/ondes-lentes/deux/');
        await expect(content(page).getByLabel('Nom de l’émission')).toHaveValue('Les Ondes Lentes');
        await expect(content(page).getByLabel('Un mot pour l’équipe (facultatif)')).toHaveValue(
          '<b>Une heure</b> par mois.',
        );
        await expect(content(page).getByText('Certains champs sont à corriger.')).toBeVisible();
        await expectNoViolations(page, '/proposer-une-emission, refusée, sans JavaScript', { scripts: false });

        await links.fill(GOOD_LINKS);
        await oldEnough(made);
        await content(page).getByRole('button', { name: 'Envoyer la proposition' }).click();
        await expect(page).toHaveURL(thanks('/proposer-une-emission', 'E'));
        await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Merci !');
        await expect(content(page).locator('.proposal-number')).toHaveText(/^E-[0-9A-HJKMNP-TV-Z]{6}$/);
        await expect(content(page).getByText(/Ce site n’envoie pas d’e-mail/)).toBeVisible();
        await expectNoViolations(page, '/proposer-une-emission/merci, sans JavaScript', { scripts: false });
      });
    });

    test('from the footer’s button, a proposal sent with the proof of work: « Merci ! », then read and kept in the editor', async ({
      page,
    }) => {
      const trouble = consoleTrouble(page);
      await gotoPage(page, '/');
      await page.locator('footer').getByRole('link', { name: 'Proposer une émission' }).click();
      await expect(page).toHaveURL(/\/proposer-une-emission$/);
      await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Proposer une émission');
      await expect(
        content(page).getByText('Nous écoutons chaque proposition ; vous recevez une réponse sous trois semaines.'),
      ).toBeVisible();
      await expect(content(page).getByRole('link', { name: 'emissions@example.org' }).first()).toHaveAttribute(
        'href',
        'mailto:emissions@example.org',
      );
      await expectNoViolations(page, '/proposer-une-emission');

      const made = begun(page);
      await fill(page, GOOD_LINKS);
      await oldEnough(await made);
      const sent = page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/api/proposals/emission'),
      );
      await content(page).getByRole('button', { name: 'Envoyer la proposition' }).click();
      // JSON with the proof of work, never the form's own post.
      const body = (await sent).postDataJSON() as { altcha?: string; links?: string[] };
      expect(body.links).toEqual(GOOD_LINKS.split('\n'));
      expect(typeof body.altcha).toBe('string');
      await expect(page).toHaveURL(thanks('/proposer-une-emission', 'E'));
      const heading = content(page).getByRole('heading', { level: 1 });
      await expect(heading).toHaveText('Merci !');
      await expect(heading).toBeFocused();
      await expect(content(page).locator('.proposal-number')).toHaveText(/^E-[0-9A-HJKMNP-TV-Z]{6}$/);
      await expect(content(page).getByText(/Ce site n’envoie pas d’e-mail/)).toBeVisible();
      await expectNoViolations(page, '/proposer-une-emission/merci');
      expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
      const number = (await content(page).locator('.proposal-number').textContent()) ?? '';

      // Read and kept in the editor, on its own origin, by a new member of the programmation team.
      await signUp(page, ['--role', 'programmation'], 'programmation');
      await expect(page.getByText(/Connecté·e :/)).toContainText('(équipe de programmation)');
      const proposal = page.getByRole('article', { name: new RegExp(`^${number} `) });
      await expect(proposal.getByRole('heading', { level: 3 })).toHaveText(`${number} Les Ondes Lentes`);
      await expect(proposal.getByText('<b>Une heure</b> par mois.')).toBeVisible();
      const out = proposal.getByRole('link', { name: 'https://soundcloud.com/ondes-lentes/un' });
      await expect(out).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(page.getByText(/L’envoi d’e-mails est coupé sur ce site/)).toBeVisible();
      await proposal.getByLabel(`État de ${number}`).selectOption('retenue');
      await expect(proposal.getByRole('status')).toHaveText('État : retenue.');
      await expect(proposal.getByRole('link', { name: 'Répondre' })).toHaveAttribute(
        'href',
        /^mailto:camille@example\.org\?subject=.+&body=.+/,
      );
      await expectNoViolations(page, '/admin (Propositions)');

      // The team's e-mail links to the editor with the number: that proposal first, its heading focused.
      await page.goto(editor(`/admin?numero=${number}`));
      const named = page.getByRole('region', { name: 'Proposition demandée' });
      await expect(named.getByRole('heading', { level: 3 })).toHaveText(`${number} Les Ondes Lentes`);
      await expect(named.getByRole('heading', { level: 3 })).toBeFocused();
      await expect(named.getByLabel(`État de ${number}`)).toHaveValue('retenue');
    });

    test('« Envoyer une démo » is the label’s: its address, no show’s schedule; a demo sent and kept by the label team', async ({
      page,
    }) => {
      const trouble = consoleTrouble(page);
      await gotoPage(page, '/label/envoyer-une-demo');
      await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Envoyer une démo');
      await expect(content(page).getByLabel('Liens vers la démo')).toBeVisible();
      await expect(content(page).getByLabel('À quel rythme, et quand pourriez-vous jouer ?')).toHaveCount(0);
      await expect(content(page).getByRole('link', { name: 'demos@example.org' }).first()).toHaveAttribute(
        'href',
        'mailto:demos@example.org',
      );
      await expectNoViolations(page, '/label/envoyer-une-demo');
      // Rendered by the server, hydrated as it was.
      expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);

      const made = begun(page);
      const form = content(page);
      await form.getByLabel('Nom du projet').fill('Brique Rouge');
      await form.getByLabel('Qui le fait').fill('Inès');
      await form.getByLabel('Le style, en quelques mots').fill('dub techno');
      await form.getByLabel('Liens vers la démo').fill(GOOD_LINKS);
      await form.getByLabel('Votre adresse e-mail').fill('ines@example.org');
      await oldEnough(await made);
      await form.getByRole('button', { name: 'Envoyer la démo' }).click();
      await expect(page).toHaveURL(thanks('/label/envoyer-une-demo', 'D'));
      await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('Merci !');
      const number = (await content(page).locator('.proposal-number').textContent()) ?? '';

      // The label team reads it beside its releases, and keeps it.
      await signUp(page, ['--role', 'label'], 'label');
      const demo = page.getByRole('article', { name: new RegExp(`^${number} `) });
      await expect(demo.getByRole('heading', { level: 3 })).toHaveText(`${number} Brique Rouge`);
      await demo.getByLabel(`État de ${number}`).selectOption('retenue');
      await expect(demo.getByRole('status')).toHaveText('État : retenue.');
      // No show proposal reaches the label team.
      await expect(page.getByRole('article', { name: /^E-/ })).toHaveCount(0);
    });
  });
