import type { Page } from '@playwright/test';
import { editorApi, editorXsrf } from '../editor';
import { consoleTrouble, expect, gotoPage, HYDRATION_TROUBLE, test } from '../fixtures';

// The content volunteers edit, served at run time (docs/content.md): a save shows on the next page,
// rendered on the server, with no rebuild and no restart. Saved here with the admin's token, as the
// editor's part would with a volunteer's session, and where it would: on the editor's own origin
// (docs/content.md, « The editor's origin »; the public host takes no content write). Each test
// restores the version it started from; visitors' reads and pages stay on the public origin.

interface Residence {
  id: string;
  artist: string;
  show: string;
  description: string;
  styles: string[];
}

/** An admin's headers for a write: the bearer token and the editor's host's XSRF cookie's value. */
async function adminHeaders(page: Page): Promise<Record<string, string>> {
  return { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres', ...(await editorXsrf(page.context())) };
}

/** Saves through `save`, runs `check`, then restores the kind's version from before. */
async function withSaved(
  page: Page,
  kind: string,
  save: (headers: Record<string, string>, basedOn: string) => Promise<number>,
  check: () => Promise<void>,
): Promise<void> {
  const headers = await adminHeaders(page);
  const history = (await (await editorApi(page.request).get(`/api/content/${kind}/history`, { headers })).json()) as {
    current: string;
  };
  expect(await save(headers, history.current)).toBe(200);
  try {
    await check();
  } finally {
    const restored = await editorApi(page.request).post(`/api/content/${kind}/restore`, {
      headers,
      data: { id: history.current },
    });
    expect(restored.status()).toBe(200);
  }
}

test.describe('content at run time', () => {
  test('a residence saved shows on its page and in the list at once, its description safe', async ({ page }) => {
    const residences = (await (await page.request.get('/api/content/residences')).json()) as Residence[];
    const entry = residences[0]!;
    const show = `${entry.show} (nouvelle saison)`;
    const trouble = consoleTrouble(page);
    await withSaved(
      page,
      'residences',
      async (headers, basedOn) =>
        (
          await editorApi(page.request).put(`/api/content/residences/${entry.id}`, {
            headers,
            data: {
              entry: {
                ...entry,
                show,
                description:
                  'Une <em>nouvelle</em> saison.<script>window.piege = 1</script><img src=x onerror="window.piege = 2">',
              },
              basedOn,
            },
          })
        ).status(),
      async () => {
        await gotoPage(page, `/residences/${entry.id}`);
        await expect(page).toHaveTitle(`${entry.artist} · ${show} · Résidences`);
        const main = page.locator('#contenu');
        await expect(main.getByText(show, { exact: true }).first()).toBeVisible();
        const description = main.locator('.residence__description');
        await expect(description.locator('em', { hasText: 'nouvelle' })).toBeVisible();
        // Sanitised when shown: no script, no handler, whatever the save held.
        expect(await description.locator('script, [onerror]').count()).toBe(0);
        expect(await page.evaluate(() => (window as { piege?: number }).piege)).toBeUndefined();
        // The list, reached by the menu (a navigation in the browser): the card says it too.
        await page.getByRole('navigation').getByRole('link', { name: 'Résidences', exact: true }).first().click();
        await expect(main.getByRole('list', { name: 'Émissions résidentes' })).toContainText(show);
      },
    );
    expect(trouble.filter((message) => HYDRATION_TROUBLE.test(message))).toEqual([]);
    // Restored: the page says the show's name again.
    await gotoPage(page, `/residences/${entry.id}`);
    await expect(page).toHaveTitle(`${entry.artist} · ${entry.show} · Résidences`);
  });

  test('the About texts saved show on the next page', async ({ page }) => {
    const about = (await (await page.request.get('/api/content/about')).json()) as {
      collective: { heading: string; paragraphs: string[] };
    };
    await withSaved(
      page,
      'about',
      async (headers, basedOn) =>
        (
          await editorApi(page.request).put('/api/content/about', {
            headers,
            data: { data: { ...about, collective: { ...about.collective, heading: 'Qui nous sommes' } }, basedOn },
          })
        ).status(),
      async () => {
        await gotoPage(page, '/a-propos');
        await expect(page.getByRole('heading', { level: 2, name: 'Qui nous sommes' })).toBeVisible();
      },
    );
    await gotoPage(page, '/a-propos');
    await expect(page.getByRole('heading', { level: 2, name: about.collective.heading })).toBeVisible();
  });

  test('a save without the XSRF token changes nothing', async ({ page }) => {
    const before = await (await page.request.get('/api/content/slides')).text();
    const slides = JSON.parse(before) as { titre: string }[];
    // On the editor's origin, from its pages (its Origin): refused by the XSRF check itself.
    const refused = await editorApi(page.request).put('/api/content/slides', {
      headers: { Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres' },
      data: { data: slides.map((slide) => ({ ...slide, titre: 'Piratée' })) },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe('xsrf');
    expect(await (await page.request.get('/api/content/slides')).text()).toBe(before);
  });
});
