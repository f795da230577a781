import { siteConfig } from '@collectif/shared/config';
import type { Page } from '@playwright/test';
import { expect, gotoPage, test } from '../fixtures';

const content = (page: Page) => page.locator('#contenu');
const section = (page: Page, name: string) => content(page).getByRole('region', { name, exact: true });

test.beforeEach(async ({ page }) => {
  await gotoPage(page, '/a-propos');
});

test('sets the title and the meta description', async ({ page }) => {
  await expect(page).toHaveTitle(`${siteConfig.name} À Propos`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Qui sommes-nous ?');
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText('À propos');
});

test('shows the sections in order, with the exact statistics', async ({ page }) => {
  await expect(content(page).getByRole('heading', { level: 2 })).toHaveText([
    'Le collectif',
    'Nos valeurs',
    'Pourquoi « Garonne » ?',
    'Repères',
    'Webradio',
    'Label',
    'Évènements',
    'Autofinancement',
    'Le studio',
    "L'équipe",
    'Contact',
    'Nous soutenir',
    'Crédits',
    'Confidentialité et mesure d’audience',
  ]);
  // The intro statement comes first, before any section.
  await expect(content(page).locator('p').nth(1)).toContainText('depuis 2017');

  const indicators = section(page, 'Repères');
  await expect(indicators.locator('dd')).toHaveText(['2017', 'Toulouse, France']);

  const figures = (name: string) => content(page).getByRole('list', { name }).getByRole('listitem');
  await expect(figures('La radio en chiffres')).toHaveText(['83 résidences', '181k écoutes', '185 directs au studio']);
  await expect(figures('Le label en chiffres')).toHaveText(['37 sorties', '58 artistes']);
  await expect(figures('Les évènements en chiffres')).toHaveText(['30 productions', '7 cette année']);

  await expect(section(page, 'Webradio')).toContainText('24h/24 7j/7');
  await expect(content(page).getByRole('list', { name: 'Les styles du label' }).getByRole('listitem')).toHaveText([
    'bass music',
    'sound system',
    'dub',
    'breakbeat',
    'UK funky',
    'dubstep',
    'grime',
    'jungle',
  ]);
});

test('the team strip scrolls with the keyboard and snaps for touch', async ({ page }) => {
  const strip = content(page).getByRole('region', { name: /Membres de l'équipe/ });
  await expect(strip.getByRole('listitem')).toHaveCount(10);
  await strip.scrollIntoViewIfNeeded();

  const scrollLeft = () => strip.evaluate((el) => el.scrollLeft);
  expect(await scrollLeft()).toBe(0);
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  await strip.focus();
  await expect(strip).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(scrollLeft).toBeGreaterThan(0);
  const afterOne = await scrollLeft();
  await page.keyboard.press('ArrowRight');
  await expect.poll(scrollLeft).toBeGreaterThan(afterOne);
  await page.keyboard.press('End');
  await expect.poll(() => strip.evaluate((el) => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1)).toBe(true);
  await page.keyboard.press('Home');
  await expect.poll(scrollLeft).toBe(0);

  await content(page).getByRole('button', { name: 'Membres suivants' }).click();
  await expect.poll(scrollLeft).toBeGreaterThan(0);

  const style = await strip.evaluate((el) => {
    const s = getComputedStyle(el);
    return { overflowX: s.overflowX, snap: s.scrollSnapType };
  });
  expect(style).toEqual({ overflowX: 'auto', snap: 'x mandatory' });

  // The portraits are the generated artwork served by the site.
  const photo = strip.locator('img').first();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
});

test('contact addresses are mailto links, each labelled, the demos’ with the label’s form beside it', async ({
  page,
}) => {
  const links = section(page, 'Contact').getByRole('link');
  await expect(links).toHaveText([
    siteConfig.emails.contact,
    siteConfig.emails.shows,
    siteConfig.emails.labelDemos,
    'Envoyer une démo',
  ]);
  for (const [label, address] of [
    ['Contact', siteConfig.emails.contact],
    ["Propositions d'émissions", siteConfig.emails.shows],
    ['Démos label', siteConfig.emails.labelDemos],
  ] as const) {
    await expect(section(page, 'Contact').getByRole('link', { name: `${label} : ${address}` })).toHaveAttribute(
      'href',
      `mailto:${address}`,
    );
  }
});

test('the donation button leads to /soutenir on the site, in the same tab, while HelloAsso takes payments there', async ({
  page,
}) => {
  // The embedded default serves HelloAsso's demo, so the support page is the site's (docs/support.md, « Turning it off, and the links »);
  // an admin turning HelloAsso off sends it back to the external page (SupportLink's own tests).
  const donate = section(page, 'Nous soutenir').getByRole('link', { name: /Faire un don/ });
  await expect(donate).toHaveAttribute('href', '/soutenir');
  await expect(donate).not.toHaveAttribute('target', /./);
  await donate.click();
  await expect(page).toHaveURL(/\/soutenir$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nous soutenir' })).toBeVisible();
});

test('the studio map loads on « Afficher le plan », and can be opened on the map site', async ({ page }) => {
  const studio = section(page, 'Le studio');
  const address = siteConfig.studio.address;
  await studio.scrollIntoViewIfNeeded();
  await expect(studio.locator('iframe')).toHaveCount(0);
  await studio.getByRole('button', { name: 'Afficher le plan' }).click();
  const frame = studio.locator('iframe');
  await expect(frame).toHaveAttribute('title', `Plan d'accès au studio : ${address}`);
  await expect(frame).toHaveAttribute(
    'src',
    `https://www.google.com/maps?q=${encodeURIComponent(address)}&output=embed`,
  );
  const open = studio.getByRole('link', { name: /Ouvrir le plan/ });
  await expect(open).toBeVisible();
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute(
    'href',
    new RegExp(encodeURIComponent(address).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  );
});

test('blocks reveal when they come within 50 px of the viewport bottom and hide again out of view', async ({
  page,
}) => {
  const credits = section(page, 'Crédits');
  // The section stays in place and is observed; its content carries the reveal marker.
  const marker = credits.locator(':scope > .reveal');
  await expect(marker).toHaveCount(1);
  await expect(marker).not.toHaveClass(/\bactive\b/);
  await credits.scrollIntoViewIfNeeded();
  await expect(marker).toHaveClass(/\bactive\b/);
  await page.evaluate(() => {
    window.scrollTo(0, 0);
  });
  await expect(marker).not.toHaveClass(/\bactive\b/);
});
