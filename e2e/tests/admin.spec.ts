import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoViolations } from '../axe';
import { authenticator, editor, editorApi, editorXsrf, invite, localhost } from '../editor';
import { THIRD_PARTY, expect, gotoPage, test } from '../fixtures';

// The volunteers' editor in Chromium (docs/content.md, « The editor »), signed in with passkeys made
// by Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain): an invitation made
// with `npm run admin`, its passkey registered, a residence changed and shown to visitors with no
// rebuild, the server's rights, a reused invitation, signing out and in again. The editor on its own
// origin, `edition.localhost` (docs/content.md, « The editor's origin »), the public pages on
// `localhost`, the passkeys' relying party of a server whose SITE_ORIGIN is its default (127.0.0.1
// cannot be one). Every write the tests make themselves goes to the editor's origin, as the editor's
// (`editorApi`); the public host takes none (e2e/tests/editor-origin.spec.ts).

/** The XSRF header a write of this page's context to the editor's origin carries (that host's cookie). */
async function xsrf(page: Page): Promise<Record<string, string>> {
  return editorXsrf(page.context());
}

/** What the public page says in the editor's frame (shell/src/layout/PreviewBridge.tsx). */
const PREVIEW_BANNER = 'Aperçu : cette page montre vos modifications, qui ne sont pas encore publiées.';

/** A residence's show as visitors get it now. */
async function showOf(id: string, page: Page): Promise<string | undefined> {
  const residences = (await (await page.request.get(localhost('/api/content/residences'))).json()) as {
    id: string;
    show: string;
  }[];
  return residences.find((residence) => residence.id === id)?.show;
}

/**
 * A portrait from the phone's camera roll, sent as it is; the site shows the WebP it made of it, from
 * the public site (the editor shows pictures at their address there: docs/content.md, « The editor
 * app »).
 */
async function sendPortrait(page: Page, side: number, background: string): Promise<void> {
  const photo = await sharp({ create: { width: side, height: side, channels: 3, background } })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"][data-purpose="portrait"]')
    .setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: photo });
  const onPublicSite = localhost('/media/').replace(/[.]/g, '\\.');
  await expect(page.getByRole('img', { name: 'Portrait actuel' })).toHaveAttribute(
    'src',
    new RegExp(`^${onPublicSite}[0-9a-f]{32}-400\\.webp$`),
  );
}

/** Keeps every refusal (403) a page of the editor meets, as `METHOD address`. */
function keepRefusals(page: Page, refused: string[]): void {
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(`${response.request().method()} ${response.url()}`);
  });
}

/** The XSRF cookie leaves this page's browser: each write after it starts as a new browser's would. */
async function forgetXsrf(page: Page): Promise<void> {
  await page.context().clearCookies({ name: 'XSRF-TOKEN' });
}

test.describe('the editor, from a browser that never visited the site (docs/api.md, « XSRF »)', () => {
  test.slow();
  test.use({ viewport: { width: 390, height: 844 } });

  test('a new volunteer makes their passkey, and every write of the editor works without an XSRF cookie', async ({
    page,
    browser,
    playwright,
  }) => {
    const name = `nouveau-${String(Date.now())}`;
    const link = await invite(['--role', 'residence', '--residence', 'axonberg']);
    const { cdp, authenticatorId } = await authenticator(page);
    // The admin's own client, with its own cookies: nothing it does reaches the volunteer's browser.
    const adminApi = await playwright.request.newContext();
    const adminEditor = editorApi(adminApi);
    const adminCookie = await adminEditor.get('/api/xsrf');
    expect(adminCookie.status()).toBe(204);
    const token =
      (await adminApi.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN' && c.domain === 'edition.localhost')
        ?.value ?? '';
    const admin = { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', 'X-XSRF-TOKEN': token };
    const history = async (kind: string) =>
      (
        (await (await adminEditor.get(`/api/content/${kind}/history`, { headers: admin })).json()) as {
          current: string;
        }
      ).current;
    const before = { residences: await history('residences'), about: await history('about') };
    // Every answer of the API this browser got: none may be a refusal.
    const refused: string[] = [];
    keepRefusals(page, refused);

    try {
      expect(await page.context().cookies()).toEqual([]);
      await page.goto(link);
      await forgetXsrf(page);
      await page.getByLabel('Nom du compte').fill(name);
      await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
      await expect(page).toHaveURL(editor('/admin'));
      await expect(page.getByText(/Connecté·e :/)).toHaveText(`Connecté·e : ${name} (résidence « axonberg »)`);

      // A picture, a preview, a publish, signing out: each the first write of a browser with no cookie.
      await forgetXsrf(page);
      const show = `Première ${String(Date.now())}`;
      await page.getByLabel('Émission').fill(show);
      await sendPortrait(page, 600, '#2e86c1');
      await forgetXsrf(page);
      await page.getByRole('button', { name: 'Voir l’aperçu de la page' }).click();
      const preview = page.frameLocator('iframe[title="Aperçu de la page de la résidence"]');
      await expect(preview.locator('.residence__show')).toHaveText(show);
      await forgetXsrf(page);
      await page.getByRole('button', { name: 'Publier' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Publié le' })).toBeVisible();

      await forgetXsrf(page);
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      await expect(page.getByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeVisible();

      // The same passkey on another new browser (synced to a laptop): signing in is its first write.
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      const laptop = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
      await laptop.route(THIRD_PARTY, (route) => route.abort('blockedbyclient'));
      try {
        const other = await laptop.newPage();
        keepRefusals(other, refused);
        const device = await authenticator(other);
        for (const credential of credentials) {
          await device.cdp.send('WebAuthn.addCredential', { authenticatorId: device.authenticatorId, credential });
        }
        await other.goto(editor('/admin'));
        await laptop.clearCookies({ name: 'XSRF-TOKEN' });
        await other.getByRole('button', { name: 'Se connecter avec une clé d’accès' }).click();
        await expect(other.getByText(/Connecté·e :/)).toHaveText(`Connecté·e : ${name} (résidence « axonberg »)`);
      } finally {
        await laptop.close();
      }

      // A team's new volunteer (the About team) in a third new browser: a publish, then a restore.
      const team = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
      await team.route(THIRD_PARTY, (route) => route.abort('blockedbyclient'));
      try {
        const phone = await team.newPage();
        keepRefusals(phone, refused);
        await authenticator(phone);
        await phone.goto(await invite(['--role', 'about']));
        await team.clearCookies({ name: 'XSRF-TOKEN' });
        await phone.getByLabel('Nom du compte').fill(`${name}-apropos`);
        await phone.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
        await expect(phone.getByText(/Connecté·e :/)).toContainText('(équipe « À propos »)');
        await phone.getByLabel('Contenu à modifier').selectOption({ label: 'Textes de la page À propos' });
        const title = phone.getByRole('group', { name: 'Le collectif' }).getByLabel('Titre', { exact: true });
        const heading = `Le collectif ${String(Date.now())}`;
        await title.fill(heading);
        await team.clearCookies({ name: 'XSRF-TOKEN' });
        await phone.getByRole('button', { name: 'Publier' }).click();
        await expect(phone.getByRole('status').filter({ hasText: 'Publié le' })).toBeVisible();
        const versions = phone.getByRole('region', { name: /^Historique/ }).getByRole('listitem');
        await expect(versions.nth(0)).toContainText(`par ${name}-apropos : en ligne`);
        await team.clearCookies({ name: 'XSRF-TOKEN' });
        await versions
          .nth(1)
          .getByRole('button', { name: /^Rétablir la version du / })
          .click();
        await expect(phone.getByRole('status').filter({ hasText: 'rétablie : elle est en ligne.' })).toBeVisible();
        await expect(title).not.toHaveValue(heading);
      } finally {
        await team.close();
      }
      expect(refused).toEqual([]);

      // A write with a wrong token, or none, is still refused (on the editor's origin, with its
      // Origin: the XSRF check's refusal, not the origin's).
      const forged = await adminEditor.put('/api/content/residences/axonberg', {
        headers: { ...admin, 'X-XSRF-TOKEN': `${token}x` },
        data: { entry: { id: 'axonberg', artist: 'X', show: 'Y', description: 'Z', styles: [] } },
      });
      expect(forged.status()).toBe(403);
      expect(((await forged.json()) as { error: string }).error).toBe('xsrf');
      const bare = await playwright.request.newContext();
      const missing = await editorApi(bare).post('/api/editor/signin/options', { data: {} });
      expect(missing.status()).toBe(403);
      expect(((await missing.json()) as { message: string }).message).toContain('Autorisez les cookies de ce site');
      await bare.dispose();
    } finally {
      for (const kind of ['residences', 'about'] as const) {
        const restored = await adminEditor.post(`/api/content/${kind}/restore`, {
          headers: admin,
          data: { id: before[kind] },
        });
        expect(restored.status()).toBe(200);
      }
      await adminApi.dispose();
    }
  });
});

test.describe('the editor, on a phone', () => {
  test.slow();
  test.use({ viewport: { width: 390, height: 844 } });

  test('a resident invited signs in with a passkey, edits their residence and only it', async ({ page }) => {
    const name = `res-${String(Date.now())}`;
    // The link as sent before the editor had its own origin: the public site's, which sends the
    // browser on to the editor's with the token (the address's fragment, kept across the redirect).
    const link = await invite(['--role', 'residence', '--residence', 'axonberg'], { on: 'public' });
    expect(link.startsWith(localhost('/admin/invitation#'))).toBe(true);
    await authenticator(page);
    const api = editorApi(page.request);
    const admin = { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', ...(await xsrf(page)) };
    const { current: before } = (await (
      await api.get('/api/content/residences/history', { headers: admin })
    ).json()) as { current: string };

    try {
      // The invitation: a name, then the passkey; the editor opens, signed in.
      await page.goto(link);
      await expect(page).toHaveURL(editor(link.slice(localhost('').length)));
      await expect(page.getByRole('heading', { level: 1, name: 'Invitation' })).toBeVisible();
      await expectNoViolations(page, 'invitation');
      await page.getByLabel('Nom du compte').fill(name);
      await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
      await expect(page).toHaveURL(editor('/admin'));
      await expect(page.getByText(/Connecté·e :/)).toHaveText(`Connecté·e : ${name} (résidence « axonberg »)`);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expect(page.getByLabel('Émission')).toBeVisible();
      await expectNoViolations(page, 'the residence’s form');

      // Their residence only: no way to another one here, and the server refuses it (403).
      await expect(page.getByLabel('Résidence à modifier')).toHaveCount(0);
      const show = `Synapses ${String(Date.now())}`;
      await page.getByLabel('Émission').fill(show);
      // A portrait from the phone's camera roll: sent as it is, made WebP by the site.
      await sendPortrait(page, 900, '#c0392b');
      // The public page itself, with the change, before anything is published.
      await page.getByRole('button', { name: 'Voir l’aperçu de la page' }).click();
      const preview = page.frameLocator('iframe[title="Aperçu de la page de la résidence"]');
      // The page's own live regions (« Suivre »'s) are statuses too: the banner is the one saying it.
      await expect(preview.getByRole('status').filter({ hasText: PREVIEW_BANNER })).toHaveText(PREVIEW_BANNER);
      await expect(preview.locator('.residence__show')).toHaveText(show);
      expect(await showOf('axonberg', page)).not.toBe(show);
      await page.getByRole('button', { name: 'Publier' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Publié le' })).toBeVisible();
      const refused = await api.put('/api/content/residences/130E0A', {
        headers: await xsrf(page),
        data: { entry: { id: '130E0A', artist: 'X', show: 'Y', description: 'Z', styles: [] } },
      });
      expect(refused.status()).toBe(403);
      // Refused for the account's rights: the request came from the editor's origin, signed in.
      expect(((await refused.json()) as { error: string }).error).toBe('forbidden');

      // Visitors see it on the next page: no rebuild, no restart.
      await page.goto(localhost('/residences/axonberg'));
      await expect(page).toHaveTitle(new RegExp(`· ${show} · Résidences$`));
      // Its portrait in the list, as the site made it, decoded by the browser.
      await page.goto(localhost('/residences'));
      const card = page.locator('a[href="/residences/axonberg"] img');
      await expect(card).toHaveAttribute('src', /^\/media\/[0-9a-f]{32}-400\.webp$/);
      await card.scrollIntoViewIfNeeded();
      // Decoded, in the width the browser chose among the site's copies.
      await expect
        .poll(() =>
          card.evaluate((image: HTMLImageElement) =>
            image.complete && image.naturalWidth > 0 ? image.currentSrc : '',
          ),
        )
        .toMatch(/\/media\/[0-9a-f]{32}-(400|800)\.webp$/);

      // Signed out, writes are refused; the passkey signs in again.
      await page.goto(editor('/admin'));
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      await expect(page.getByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeVisible();
      const signedOut = await api.put('/api/content/residences/axonberg', {
        headers: await xsrf(page),
        data: { entry: { id: 'axonberg', artist: 'X', show: 'Y', description: 'Z', styles: [] } },
      });
      expect(signedOut.status()).toBe(401);
      await page.getByRole('button', { name: 'Se connecter avec une clé d’accès' }).click();
      await expect(page.getByText(/Connecté·e :/)).toHaveText(`Connecté·e : ${name} (résidence « axonberg »)`);

      // The invitation served once.
      await page.goto(link);
      await page.getByLabel('Nom du compte').fill(`${name}-bis`);
      await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
      await expect(page.getByRole('alert')).toHaveText('Cette invitation a déjà servi : demandez-en une nouvelle.');
    } finally {
      const restored = await api.post('/api/content/residences/restore', {
        headers: admin,
        data: { id: before },
      });
      expect(restored.status()).toBe(200);
    }
  });

  test('the About team edits the page’s texts, previews the page itself, publishes, meets a conflict, restores, and sends a file that is no picture', async ({
    page,
  }) => {
    const link = await invite(['--role', 'about']);
    await authenticator(page);
    const api = editorApi(page.request);
    const admin = { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', ...(await xsrf(page)) };
    const { current: before } = (await (await api.get('/api/content/about/history', { headers: admin })).json()) as {
      current: string;
    };
    try {
      await page.goto(link);
      const account = `apropos-${String(Date.now())}`;
      await page.getByLabel('Nom du compte').fill(account);
      await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
      await expect(page.getByText(/Connecté·e :/)).toContainText('(équipe « À propos »)');
      await page.getByLabel('Contenu à modifier').selectOption({ label: 'Textes de la page À propos' });
      const collective = page.getByRole('group', { name: 'Le collectif' });
      const heading = `Le collectif ${String(Date.now())}`;
      await collective.getByLabel('Titre', { exact: true }).fill(heading);
      await expectNoViolations(page, 'the About texts’ form');

      await page.getByRole('button', { name: 'Voir l’aperçu de la page' }).click();
      const preview = page.frameLocator('iframe[title="Aperçu de la page À propos"]');
      // The banner, among the page's own live regions (About's « Ne pas être compté » has one).
      await expect(preview.getByRole('status').filter({ hasText: PREVIEW_BANNER })).toHaveText(PREVIEW_BANNER);
      await expect(preview.getByRole('heading', { level: 2, name: heading })).toBeVisible();
      await expectNoViolations(page, 'the form with its preview');

      // Not published yet: a visitor still reads the served text; then « Publier » shows it to all.
      const served = (await (await page.request.get(localhost('/api/content/about'))).json()) as {
        collective: { heading: string };
      };
      expect(served.collective.heading).not.toBe(heading);
      await page.getByRole('button', { name: 'Publier' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Publié le' })).toBeVisible();
      const visitor = await page.context().browser()?.newPage();
      if (visitor === undefined) throw new Error('pas de navigateur');
      await visitor.goto(localhost('/a-propos'));
      await expect(visitor.getByRole('heading', { level: 2, name: heading })).toBeVisible();
      await expect(visitor.getByRole('status').filter({ hasText: 'Aperçu' })).toHaveCount(0);
      await visitor.close();

      // Someone else saves meanwhile (the admin, through /api): « Publier » says so with their
      // version beside the volunteer's, and « Publier ma version à la place » loses nothing.
      const button = `Donner ${String(Date.now())}`;
      const theirs = (await (await page.request.get(localhost('/api/content/about'))).json()) as {
        support: { button: string };
      };
      const put = await api.put('/api/content/about', {
        headers: admin,
        data: { data: { ...theirs, support: { ...theirs.support, button } } },
      });
      expect(put.status()).toBe(200);
      await collective.getByLabel('Titre', { exact: true }).fill(`${heading} bis`);
      await page.getByRole('button', { name: 'Publier' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Modifié entre-temps par admin (jeton)' });
      await expect(conflict).toBeVisible();
      await expect(collective.getByLabel('Titre', { exact: true })).toHaveValue(`${heading} bis`);
      await conflict.getByRole('button', { name: 'Publier ma version à la place' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Publié le' })).toBeVisible();

      // The history puts their version back online in one action, and the form opens it. Once it
      // has read the versions again: the volunteer's, theirs, the volunteer's first.
      const versions = page.getByRole('region', { name: /^Historique/ }).getByRole('listitem');
      await expect(versions.nth(2)).toContainText(`par ${account}`);
      await expect(versions.nth(0)).toContainText(`par ${account} : en ligne`);
      await versions
        .nth(1)
        .getByRole('button', { name: /^Rétablir la version du .*, par admin \(jeton\)$/ })
        .click();
      await expect(page.getByRole('status').filter({ hasText: 'rétablie : elle est en ligne.' })).toBeVisible();
      await expect(collective.getByLabel('Titre', { exact: true })).toHaveValue(heading);
      const online = (await (await page.request.get(localhost('/api/content/about'))).json()) as {
        support: { button: string };
      };
      expect(online.support.button).toBe(button);

      // A file that is no picture, sent as a team photo: refused in the site's words.
      await page.getByLabel('Contenu à modifier').selectOption({ label: 'L’équipe (page À propos)' });
      await page
        .locator('input[type="file"][data-purpose="team"]')
        .first()
        .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('%PDF-1.4 pas une image') });
      await expect(page.getByRole('alert').filter({ hasText: 'Fichier refusé' })).toContainText(
        'ce n’est pas une image reconnue.',
      );
    } finally {
      const restored = await api.post('/api/content/about/restore', {
        headers: admin,
        data: { id: before },
      });
      expect(restored.status()).toBe(200);
    }
  });

  test('is for volunteers only: out of the menu and the sitemap, never indexed', async ({ page }) => {
    await page.goto(editor('/admin'));
    await expect(page.getByRole('heading', { level: 1, name: 'Espace des bénévoles' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeVisible();
    await expectNoViolations(page, 'signed out');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    // The menu is the public site's: the editor's document has none (it is no page of the shell any
    // more), so it is read on a public page, its links all there (hidden or not) and then opened.
    await gotoPage(page, localhost('/'));
    await expect(page.locator('a[href*="admin"]')).toHaveCount(0);
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Résidences', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: /bénévoles|admin/i })).toHaveCount(0);
    const sitemap = await (await page.request.get(localhost('/sitemap.xml'))).text();
    expect(sitemap).not.toContain('/admin');
  });

  test('adds nothing to what a visitor of the public pages downloads', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/mf-admin/')) asked.push(request.url());
    });
    await gotoPage(page, '/');
    // The shell prefetches the menu's pages once the page is idle: none of them is the editor's.
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Résidences', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Résidences' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
  });
});
