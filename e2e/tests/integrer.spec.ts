import type { Page } from '@playwright/test';
import { EMBED_EPISODES_HEIGHT, EMBED_HEIGHTS, EMBED_TIMELINE_HEIGHTS } from '@collectif/shared/embed';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';
import { recordedWindow } from '../timeshift-site';

// « Intégrer le lecteur » (/integrer, docs/embed.md): the partner's choices in the address, the real
// player previewed in its iframe, the code to copy, and the « Intégrer » links that preset it.

const scriptCode = (page: Page) => page.getByRole('textbox', { name: 'Le code du lecteur (script)' });
const frameCode = (page: Page) => page.getByRole('textbox', { name: 'Le code du lecteur (iframe)' });
const preview = (page: Page) => page.getByRole('region', { name: 'Aperçu' }).locator('iframe');

async function firstEpisode(page: Page, residence: string): Promise<{ slug: string; artist: string; show: string }> {
  const response = await page.request.get(`/api/episodes?residence=${residence}`);
  const { items } = (await response.json()) as { items: { slug: string; artist: string; show: string }[] };
  const first = items[0];
  if (first === undefined) throw new Error(`aucune émission de ${residence}`);
  return first;
}

/** Opens the page and waits until React has taken over its form (before, a click is the browser's alone). */
async function openConfigurator(page: Page, path: string): Promise<void> {
  await gotoPage(page, path);
  await expect
    .poll(() =>
      page.evaluate(() => {
        const form = document.querySelector('form.integrer__form');
        return form !== null && Object.keys(form).some((key) => key.startsWith('__reactFiber'));
      }),
    )
    .toBe(true);
}

/** The site's public origin (SITE_ORIGIN), which the code names whatever name the page was opened at. */
async function publicOrigin(page: Page): Promise<string> {
  return new URL((await page.locator('link[rel="canonical"]').getAttribute('href')) ?? '').origin;
}

test('a residence, a look and a size: the address, the preview and the code follow', async ({ page }) => {
  const trouble = consoleTrouble(page);
  await openConfigurator(page, '/integrer');
  const origin = await publicOrigin(page);
  await expect(preview(page)).toHaveAttribute('src', '/embed/lecteur');
  // The framed player is the site's own page: the site's policy lets it in ('self' in frame-src).
  await expect(page.frameLocator('.integrer__frame iframe').locator('collectif-player')).toBeAttached();

  await page.getByRole('radio', { name: /Une résidence/ }).check();
  await page.getByRole('combobox', { name: 'Résidence' }).selectOption('axonberg');
  await page.getByRole('radio', { name: 'Clair' }).check();
  await page.getByRole('radio', { name: /Carte/ }).check();

  await expect(page).toHaveURL(/\/integrer\?residence=axonberg&theme=clair&format=carte$/);
  await expect(preview(page)).toHaveAttribute('src', '/embed/lecteur?residence=axonberg&theme=clair&format=carte');
  await expect(scriptCode(page)).toHaveValue(
    `<script src="${origin}/embed/collectif-player.js" defer></script>\n` +
      `<collectif-player api-base="${origin}/api" residence="axonberg" theme="clair" format="carte"></collectif-player>`,
  );
  await expect(frameCode(page)).toHaveValue(
    new RegExp(`^<iframe src="${origin}/embed/lecteur\\?residence=axonberg&amp;theme=clair&amp;format=carte"`),
  );
  await expect(frameCode(page)).toHaveValue(
    new RegExp(`height="${String(EMBED_HEIGHTS.carte + EMBED_EPISODES_HEIGHT)}"`),
  );
  // The framed player plays the residence, in its light look.
  const framed = page.frameLocator('.integrer__frame iframe').locator('collectif-player');
  await expect(framed).toHaveAttribute('residence', 'axonberg');
  await expect(framed).toHaveAttribute('theme', 'clair');

  // Shared as it is: the address opens the same choice, rendered by the server.
  const html = await (await page.request.get(page.url())).text();
  expect(html).toContain('residence=&quot;axonberg&quot; theme=&quot;clair&quot; format=&quot;carte&quot;');
  expect(trouble.filter((message) => /Content Security Policy|Refused to frame/i.test(message))).toEqual([]);
  expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
});

test('an episode found with the search, and « Ma couleur »', async ({ page }) => {
  await openConfigurator(page, '/integrer');
  await page.getByRole('radio', { name: /Un épisode/ }).check();
  await expect(page.getByText(/Cherchez un épisode, puis choisissez-le/)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Rechercher un épisode' }).fill('synapses');
  const results = page.getByRole('group', { name: 'Épisodes' });
  await expect(results.getByRole('radio').first()).toBeVisible();
  const slug = (await results.getByRole('radio').first().getAttribute('value')) ?? '';
  await results.getByRole('radio').first().check();
  await expect(page).toHaveURL(new RegExp(`/integrer\\?episode=${slug}$`));
  await expect(preview(page)).toHaveAttribute('src', `/embed/lecteur?episode=${slug}`);
  await expect(scriptCode(page)).toHaveValue(new RegExp(`episode="${slug}"`));

  await page.getByRole('radio', { name: 'Ma couleur' }).check();
  await page.getByLabel('Choisir ma couleur').fill('#e0457b');
  await expect(page).toHaveURL(new RegExp(`/integrer\\?episode=${slug}&couleur=e0457b$`));
  await expect(scriptCode(page)).toHaveValue(/couleur="#e0457b"/);
});

test('« Écoute en différé »: the framed player offers the live’s timeline, and the code carries it', async ({
  page,
  baseURL,
}) => {
  test.slow();
  // The row shows once the recorder has a segment (docs/embed.md, « The timeline »).
  await expect
    .poll(async () => (await recordedWindow(baseURL ?? ''))?.end ?? 0, { timeout: 45_000 })
    .toBeGreaterThan(0);
  await openConfigurator(page, '/integrer');
  const origin = await publicOrigin(page);
  const box = page.getByRole('checkbox', { name: 'Écoute en différé (revenir en arrière dans le direct)' });
  await expect(box).not.toBeChecked();
  await expect(page.getByRole('group', { name: 'Le direct' })).toContainText('Reprendre au début');

  await box.check();
  await expect(page).toHaveURL(/\/integrer\?differe=1$/);
  await expect(preview(page)).toHaveAttribute('src', '/embed/lecteur?differe=1');
  await expect(scriptCode(page)).toHaveValue(
    `<script src="${origin}/embed/collectif-player.js" defer></script>\n` +
      `<collectif-player api-base="${origin}/api" differe></collectif-player>`,
  );
  await expect(frameCode(page)).toHaveValue(new RegExp(`^<iframe src="${origin}/embed/lecteur\\?differe=1"`));
  const height = EMBED_HEIGHTS.barre + EMBED_TIMELINE_HEIGHTS.barre;
  await expect(frameCode(page)).toHaveValue(new RegExp(`height="${String(height)}"`));

  // The framed player, pressed, shows the timeline, within the height the code gives the iframe.
  const framed = page.frameLocator('.integrer__frame iframe');
  const slider = framed.getByRole('slider', { name: 'Position dans le direct' });
  await expect(framed.locator('collectif-player')).toHaveAttribute('differe', '');
  await framed.getByRole('button', { name: 'Lecture' }).click();
  await expect(slider).toBeVisible();
  await expect(slider).toHaveAttribute('aria-valuetext', 'En direct');
  const told = () => framed.locator('html').evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
  await expect
    .poll(async () => {
      const needed = await told();
      return { fits: needed <= height, preview: (await preview(page).getAttribute('height')) === String(needed) };
    })
    .toEqual({ fits: true, preview: true });

  // Unchecked: a new frame whose player, open live, has none.
  await box.uncheck();
  await expect(page).toHaveURL(/\/integrer$/);
  await expect(framed.locator('collectif-player')).not.toHaveAttribute('differe');
  await framed.getByRole('button', { name: 'Lecture' }).click();
  await expect(framed.getByRole('button', { name: /^À l’antenne|^À suivre/ })).toBeVisible();
  await expect(slider).toHaveCount(0);
  await expect(scriptCode(page)).not.toHaveValue(/differe/);
});

test('« Copier » puts the code in the clipboard and says « Copié »', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openConfigurator(page, '/integrer?format=carte');
  const iframe = page.getByRole('region', { name: 'Avec une iframe' });
  await iframe.getByRole('button', { name: 'Copier : Le code du lecteur (iframe)' }).click();
  await expect(iframe.getByRole('status').filter({ hasText: 'Copié' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await frameCode(page).inputValue());
});

test('the « Intégrer » links of an episode and of a residence open the configurator preset', async ({ page }) => {
  const episode = await firstEpisode(page, 'axonberg');
  await gotoPage(page, `/emissions/${episode.slug}`);
  await page.getByRole('link', { name: 'Intégrer', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/integrer\\?episode=${episode.slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Intégrer le lecteur' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Un épisode/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: `${episode.artist} · ${episode.show}`, exact: false })).toBeChecked();
  await expect(preview(page)).toHaveAttribute('src', `/embed/lecteur?episode=${episode.slug}`);

  await gotoPage(page, '/residences/axonberg');
  await page.getByRole('region', { name: 'Sur votre site' }).getByRole('link', { name: 'Intégrer le lecteur' }).click();
  await expect(page).toHaveURL(/\/integrer\?residence=axonberg$/);
  await expect(page.getByRole('radio', { name: /Une résidence/ })).toBeChecked();
  await expect(page.getByRole('combobox', { name: 'Résidence' })).toHaveValue('axonberg');
  await expect(scriptCode(page)).toHaveValue(/residence="axonberg"/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form is sent as it is, and the server renders the choice', async ({ page }) => {
    await page.goto('/integrer');
    await page.getByRole('radio', { name: /Une résidence/ }).check();
    await expect(page.getByRole('combobox', { name: 'Résidence' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Résidence' }).selectOption('la-brume');
    await page.getByRole('radio', { name: 'Jaune (couleurs du collectif)' }).check();
    await page.getByRole('radio', { name: /Carte/ }).check();
    await page.getByRole('checkbox', { name: /Écoute en différé/ }).check();
    await page.getByRole('button', { name: 'Mettre à jour le code' }).click();
    await expect(page).toHaveURL(/\/integrer\?joue=residence&residence=la-brume/);
    await expect(preview(page)).toHaveAttribute(
      'src',
      '/embed/lecteur?residence=la-brume&theme=jaune&format=carte&differe=1',
    );
    await expect(scriptCode(page)).toHaveValue(/residence="la-brume" theme="jaune" format="carte" differe>/);
    await expect(page.getByRole('checkbox', { name: /Écoute en différé/ })).toBeChecked();
  });
});
